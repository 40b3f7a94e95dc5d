"""The one reader of AlienLogic answers (tasks.alienlogic_reader over
tasks.answer_text), through which `alienlogic grade` and the episode grade:
the refusal spellings it accepts and refuses, proof blocks, agreement
between the grader and the episode, and time linear in the input (CPU-time
bounds far below what a quadratic reader takes on the same input)."""

import time

import pytest
from alienworlds.episode import answers as episode_answers
from alienworlds.episode.alienlogic_env import AlienLogicEnvironment
from alienworlds.tasks import answer_text
from alienworlds.tasks.alienlogic_grading import AlienLogicGrader, logic_tasks
from alienworlds.tasks.alienlogic_reader import RECORDED_REFUSAL, read_answer
from alienworlds.tasks.answer_text import is_refusal, proof_blocks, refusal
from alienworlds.tasks.bank import load_bank
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from machine_speed import scaled

from alienlogic import check, load_world

WORLD = load_world("main")
BANK = load_bank("alienlogic", "main")
GRADER = AlienLogicGrader(WORLD, BANK)
TASKS = logic_tasks(BANK)
PROVABLE = next(t for t in TASKS if t.provable)
UNPROVABLE = next(t for t in TASKS if not t.provable)
ENV = AlienLogicEnvironment(WORLD, BANK)

REFUSALS = [
    "ANSWER: UNPROVABLE",
    "answer: unprovable",
    "Answer : Unprovable",
    "ANSWER:UNPROVABLE",
    "- ANSWER: UNPROVABLE",
    "* ANSWER: UNPROVABLE",
    "+ ANSWER: UNPROVABLE",
    "# ANSWER: UNPROVABLE",
    "## ANSWER: UNPROVABLE",
    "> ANSWER: UNPROVABLE",
    "> - **ANSWER: UNPROVABLE**",
    "ANSWER: UNPROVABLE!",
    "ANSWER: UNPROVABLE.",
    "**ANSWER: UNPROVABLE**",
    "**ANSWER:** UNPROVABLE",
    "ANSWER: **UNPROVABLE**",
    "`ANSWER: UNPROVABLE`",
    "**ANSWER:** `UNPROVABLE`.",
    "_ANSWER: UNPROVABLE_",
    "\tANSWER: UNPROVABLE  ",
    "ANSWER:\u00a0UNPROVABLE",
]
NOT_REFUSALS = [
    "ANSWER: UNPROVABLE?",
    "ANSWER: UNPROVABLE, I think",
    "ANSWER: NOT UNPROVABLE",
    "1. ANSWER: UNPROVABLE",
    "The ANSWER: UNPROVABLE line would be wrong here",
    "this is unprovable",
    "UNPROVABLE",
    "ANSWER: PROVABLE",
    "ANSWER UNPROVABLE",
    "ANSWER: UN PROVABLE",
    "ANSWERS: UNPROVABLE",
    "ANSWER: UNPROVABLE because",
]


@pytest.mark.parametrize("line", REFUSALS)
def test_refusal_spellings_accepted_by_the_grader_and_the_episode(line):
    text = f"I tried every rule.\n{line}\n"
    assert is_refusal(line) and refusal(text)
    assert GRADER.grade(UNPROVABLE.id, text).passed
    assert read_answer(text).refused
    grade = ENV.grade(UNPROVABLE.id, text)
    assert grade.passed and grade.answer == RECORDED_REFUSAL


@pytest.mark.parametrize("line", NOT_REFUSALS)
def test_spellings_that_are_no_refusal(line):
    assert not is_refusal(line) and not refusal(line)
    assert not GRADER.grade(UNPROVABLE.id, line).passed
    assert ENV.grade(UNPROVABLE.id, line).answer is None


def test_proof_blocks():
    proof = PROVABLE.reference.strip()
    assert proof_blocks(f"text\n```proof\n{proof}\n```\nmore") == (proof + "\n",)
    assert proof_blocks("```PROOF\npremises: p\ngoal: p\n1. p [premise]\nEND```") == (
        "PROOF\npremises: p\ngoal: p\n1. p [premise]\nEND\n",
    )
    quoted = "\n".join("> " + row for row in proof.splitlines())
    assert proof_blocks(quoted) == (proof + "\n",)
    assert proof_blocks("PROOF\npremises: p\ngoal: p\n") == (
        "PROOF\npremises: p\ngoal: p\n",
    )  # no END: to the end
    assert len(proof_blocks(proof + "\n" + proof)) == 2
    assert proof_blocks("THE PROOF\nEND") == () and proof_blocks("``PROOF\nEND") == ()


# -- the grader and the episode read every answer alike -----------------------------

PIECES = [
    PROVABLE.reference.strip(),
    UNPROVABLE.naive.strip(),
    *REFUSALS[:8],
    *NOT_REFUSALS[:6],
    "```proof",
    "```",
    "PROOF",
    "END",
    "> ",
    "prose",
    "",
    "premises: p",
    "1. p [premise]",
]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=6), st.sampled_from(["\n", "\r\n", "\n\n"]))
def test_grader_and_episode_agree_on_generated_answers(pieces, sep):
    text = sep.join(pieces)
    proofs, refused = proof_blocks(text), refusal(text)
    for task in (PROVABLE, UNPROVABLE):
        direct = GRADER.grade(task.id, text)
        assert ENV.grade(task.id, text) == direct, (task.id, text)
        assert (direct.answer == RECORDED_REFUSAL) == (refused and not proofs)
        # only one proof block or a lone refusal is judged; anything else fails unread
        judged = (len(proofs) == 1 and not refused) or (refused and not proofs)
        assert (direct.answer is not None) == judged
        assert direct.passed <= judged


# -- time linear in the input -----------------------------------------------------

# Each reader gets 150 KB shaped to defeat a backtracking reader (the old
# refusal pattern took over a minute on the first). A linear reader needs a
# few hundredths of a second; the bound leaves room for a busy machine.
FLOODS = {
    "blank lines": "\n" * 150_000,
    "CRLF blank lines": "\r\n" * 75_000 + "ANSWER: UNPROVABLE",
    "quoted blank lines": "\n>" * 75_000,
    "blank lines after PROOF": "PROOF" + "\n" * 150_000,
    "spaces after ANSWER": "ANSWER:" + " " * 150_000 + "x",
    "emphasis after ANSWER": "ANSWER:" + "*" * 150_000 + "x",
    "spaces in a prediction": "PREDICTION: a" + " " * 150_000 + "b",
    "remarks in a rule line": "R01" + " (x)" * 37_500 + " !",
    "spaces in a rule line": "R01" + " " * 150_000 + "!",
    "fence openers": "```a\n" * 30_000,
    "backticks": "`" * 150_000,
    "digits": "1" * 150_000,
    "bars": "| " * 75_000,
}
READERS = {
    "read_answer": read_answer,
    "grade": lambda text: GRADER.grade(PROVABLE.id, text),
    "check": lambda text: check(text, GRADER.compiled),
    "episode": lambda text: ENV.grade(PROVABLE.id, text),
    "prediction": answer_text.prediction,
    "rule_lines": lambda text: episode_answers.rule_lines(text, ["R01"]),
    "fenced_blocks": answer_text.fenced_blocks,
}


@pytest.mark.parametrize("flood", FLOODS)
def test_floods_are_read_in_linear_time(flood):
    text = FLOODS[flood]
    for name, reader in READERS.items():
        start = time.process_time()
        reader(text)
        spent = time.process_time() - start
        assert spent < scaled(1.0), (name, spent)  # machine_speed.py


def test_doubling_the_input_about_doubles_the_time():
    def cost(n: int) -> float:
        text = ("\n" * 50 + "ANSWER:" + " " * 50 + "x\n") * n
        start = time.process_time()
        for _ in range(3):
            for reader in READERS.values():
                reader(text)
        return time.process_time() - start

    small, big = cost(500), cost(4000)
    # 8x the input: a linear reader takes about 8x the time, a quadratic one 64x
    assert big < 24 * small + 0.05, (small, big)
