"""The one reader of AlienLogic answers (tasks.answer_text), shared by
`alienlogic grade` and the episode: the refusal spellings it accepts and
refuses, proof blocks, agreement between the grader's and the episode's
readings, and time linear in the input (CPU-time bounds far below what a
quadratic reader takes on the same input)."""

import time

import pytest
from alienworlds.episode import answers as episode_answers
from alienworlds.episode.alienlogic_env import AlienLogicEnvironment, read_answer
from alienworlds.tasks.alienlogic_grading import AlienLogicGrader, extract_answer, logic_tasks
from alienworlds.tasks.answer_text import is_refusal, proof_blocks, refusal
from alienworlds.tasks.bank import load_bank
from hypothesis import given, settings
from hypothesis import strategies as st

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
    assert ENV.extract_answer(UNPROVABLE.id, text) == "UNPROVABLE"
    assert ENV.grade(UNPROVABLE.id, ENV.extract_answer(UNPROVABLE.id, text)).passed


@pytest.mark.parametrize("line", NOT_REFUSALS)
def test_spellings_that_are_no_refusal(line):
    assert not is_refusal(line) and not refusal(line)
    assert not GRADER.grade(UNPROVABLE.id, line).passed
    assert ENV.extract_answer(UNPROVABLE.id, line) is None


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


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=6), st.sampled_from(["\n", "\r\n", "\n\n"]))
def test_grader_and_episode_agree_on_generated_answers(pieces, sep):
    text = sep.join(pieces)
    for task in (PROVABLE, UNPROVABLE):
        direct = GRADER.grade(task.id, text).passed
        answer = ENV.extract_answer(task.id, text)
        via_episode = answer is not None and ENV.grade(task.id, answer).passed
        assert direct == via_episode, (task.id, text)
        found = extract_answer(text)
        assert (answer == "UNPROVABLE") == (found.refusal and not found.proofs)


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
    "extract_answer": extract_answer,
    "grade": lambda text: GRADER.grade(PROVABLE.id, text),
    "check": lambda text: check(text, GRADER.compiled),
    "episode": read_answer,
    "prediction": episode_answers.prediction,
    "rule_lines": lambda text: episode_answers.rule_lines(text, ["R01"]),
    "fenced_blocks": episode_answers.fenced_blocks,
}


@pytest.mark.parametrize("flood", FLOODS)
def test_floods_are_read_in_linear_time(flood):
    text = FLOODS[flood]
    for name, reader in READERS.items():
        start = time.process_time()
        reader(text)
        spent = time.process_time() - start
        assert spent < 1.0, (name, spent)


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
