"""Grading AlienLogic answers: extraction from model text, the pass rules,
ambiguity, the command's JSON and exit codes, and robustness."""

import json
from dataclasses import fields

import pytest
from alienworlds.cli.alienlogic import cli
from alienworlds.tasks.alienlogic_grading import AlienLogicGrader, logic_tasks
from alienworlds.tasks.alienlogic_reader import read_answer
from alienworlds.tasks.bank import load_bank
from alienworlds.tasks.grade import Grade
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from alienlogic import load_world

WORLD = load_world("main")
BANK = load_bank("alienlogic", "main")
GRADER = AlienLogicGrader(WORLD, BANK)
TASKS = {t.id: t for t in logic_tasks(BANK)}
PROVABLE = next(t for t in TASKS.values() if t.provable and t.naive)
UNPROVABLE = next(t for t in TASKS.values() if not t.provable)


def test_every_reference_passes_and_every_refusal_of_an_unprovable_theorem_passes():
    for t in TASKS.values():
        if t.provable:
            g = GRADER.grade(t.id, t.reference)
            assert g.passed and g.verdict["accepted"], (t.id, g.reason)
            assert not GRADER.grade(t.id, "ANSWER: UNPROVABLE").passed
        else:
            assert GRADER.grade(t.id, "ANSWER: UNPROVABLE").passed
            g = GRADER.grade(t.id, t.naive)
            assert not g.passed and g.verdict is not None and not g.verdict["accepted"]
        if t.naive and t.provable:
            assert not GRADER.grade(t.id, t.naive).passed


@pytest.mark.parametrize(
    "wrap",
    [
        lambda p: p,
        lambda p: f"Here is my proof.\n\n```\n{p}```\n\nDone.",
        lambda p: f"```fitch\n{p}```",
        lambda p: "Reasoning first...\n" + p.replace("\n", "\r\n"),
        lambda p: "\n".join("> " + line for line in p.splitlines()),
        lambda p: "\n".join("  " + line for line in p.splitlines()),
    ],
)
def test_a_proof_is_found_in_model_text(wrap):
    g = GRADER.grade(PROVABLE.id, wrap(PROVABLE.reference))
    assert g.passed, g.reason


@pytest.mark.parametrize(
    "text, refusal",
    [
        ("ANSWER: UNPROVABLE", True),
        ("After trying, I conclude:\n**ANSWER: UNPROVABLE**", True),
        ("answer: unprovable.", True),
        ("`ANSWER: UNPROVABLE`", True),
        ("I think this is UNPROVABLE.", False),
        ("The ANSWER: UNPROVABLE line would be wrong here; the theorem holds.", False),
    ],
)
def test_refusal_lines(text, refusal):
    assert read_answer(text).refused is refusal
    assert GRADER.grade(UNPROVABLE.id, text).passed is refusal


def test_ambiguous_and_empty_answers_fail():
    both = f"{UNPROVABLE.naive}\nANSWER: UNPROVABLE"
    assert "both a proof and a refusal" in GRADER.grade(UNPROVABLE.id, both).reason
    assert "both" in GRADER.grade(PROVABLE.id, f"ANSWER: UNPROVABLE\n{PROVABLE.reference}").reason
    two = GRADER.grade(PROVABLE.id, PROVABLE.reference + "\n" + PROVABLE.reference)
    assert not two.passed and "2 proof blocks" in two.reason
    assert "no proof block" in GRADER.grade(PROVABLE.id, "I give up.").reason
    assert not GRADER.grade(PROVABLE.id, "").passed


def test_the_theorem_must_be_the_tasks():
    other = next(
        t
        for t in TASKS.values()
        if t.provable and t.id != PROVABLE.id and t.theorem != PROVABLE.theorem
    )
    g = GRADER.grade(PROVABLE.id, other.reference)
    assert not g.passed and g.verdict["reason_class"] == "ANSWER_MISMATCH"


def test_an_unterminated_proof_is_a_parse_error_not_a_crash():
    g = GRADER.grade(PROVABLE.id, "PROOF\npremises: p\ngoal: p\n1. p [premise]\n")
    assert not g.passed and g.verdict["reason_class"] == "PARSE_ERROR"


def test_grade_json_and_exit_codes(tmp_path):
    runner = CliRunner()
    path = tmp_path / "answer.txt"
    path.write_text("```\n" + PROVABLE.reference + "```\n", encoding="utf-8")
    result = runner.invoke(
        cli, ["grade", "--world", "main", "--task", PROVABLE.id, "--json", str(path)]
    )
    data = json.loads(result.output)
    # the one verdict type both graders return
    assert result.exit_code == 0 and set(data) == {f.name for f in fields(Grade)}
    assert data["passed"] and data["world_hash"] == WORLD.hash and data["verdict"]["accepted"]
    result = runner.invoke(
        cli, ["grade", "--world", "main", "--task", PROVABLE.id], input=PROVABLE.naive
    )
    assert result.exit_code == 1 and "fail" in result.output
    result = runner.invoke(
        cli,
        ["grade", "--world", "main", "--task", UNPROVABLE.id, "--json"],
        input="ANSWER: UNPROVABLE\n",
    )
    assert result.exit_code == 0 and json.loads(result.output)["verdict"] is None
    assert (
        runner.invoke(cli, ["grade", "--world", "main", "--task", "L99"], input="x").exit_code == 2
    )
    assert (
        runner.invoke(cli, ["grade", "--world", "nowhere", "--task", "L01"], input="x").exit_code
        == 2
    )
    assert (
        runner.invoke(
            cli, ["grade", "--world", "main", "--task", "L01", str(tmp_path / "none")]
        ).exit_code
        == 2
    )


@settings(max_examples=examples(200), deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("PROOFEND ANSWER:UNPROVABLE|[]()12.,-\n`>*pq")), max_size=200
    )
)
def test_any_text_gets_a_grade(text):
    for task in (PROVABLE, UNPROVABLE):
        g = GRADER.grade(task.id, text)
        assert isinstance(g.passed, bool) and g.reason
