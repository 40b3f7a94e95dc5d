"""The AlienCode grader and bank audit, on the demo world's bank, and the
`aliencode tasks` / `grade` / `world check` commands."""

import json
from dataclasses import fields

import alienworlds.tasks.aliencode_grading as grading
import pytest
from alienworlds.cli.aliencode import main
from alienworlds.ruleset import Limits, World
from alienworlds.tasks.aliencode_audit import audit, sites_used
from alienworlds.tasks.aliencode_grading import AlienCodeGrader, outcomes, prints
from alienworlds.tasks.bank import BankError, Task, load_bank
from alienworlds.tasks.grade import Grade
from click.testing import CliRunner

from aliencode.world_schema import load

WORLD = load("demo")
BANK = load_bank("aliencode", "demo")


@pytest.fixture(scope="module")
def grader():
    return AlienCodeGrader(WORLD, BANK)


def test_expected_outputs_are_computed_in_the_world(grader):
    assert grader.expected(BANK.task("T3")) == ["8", "8", "-2"]
    assert grader.expected(BANK.task("T5")) == ["11 True"]


def test_reference_passes_naive_fails(grader):
    task = BANK.task("T6")
    assert grader.grade("T6", task.reference).passed
    naive = grader.grade("T6", task.naive)
    assert not naive.passed and {c.reason for c in naive.calls} == {"wrong output"}


@pytest.mark.parametrize(
    "answer,reason",
    [
        (
            "CRAFT add_ten(n):\n    DELIVER x",
            "[AlienError] NameError: name 'x' is not defined (line 2)",
        ),
        ("CRAFT add_ten(n:\n    IDLE", "[AlienError] SyntaxError"),
        (
            "CRAFT other(n):\n    DELIVER n",
            "[AlienError] NameError: name 'add_ten' is not defined (line 1)",
        ),
        ("CRAFT add_ten(n):\n    WHILE YES:\n        IDLE", "over the answer budget: more than"),
        (
            "EMIT(PLUCK(STRAND(), 0))\nCRAFT add_ten(n):\n    DELIVER n",
            "the answer itself fails: [AlienError] IndexError",
        ),
    ],
)
def test_failing_answers_give_reasons(grader, answer, reason):
    result = grader.grade("T6", f"```aliencode\n{answer}\n```")
    assert not result.passed and result.reason.startswith(reason)
    assert all(c.reason.startswith(reason) for c in result.calls)


@pytest.mark.parametrize("answer", ["CRAFT add_ten(n:\n    IDLE", "EMIT(" * 300])
def test_an_answer_that_fails_as_a_whole_says_so_once(grader, answer):
    result = grader.grade("T6", f"```aliencode\n{answer}\n```")
    assert not result.passed and result.calls == () and result.reason
    assert result.answer == answer and result.as_dict()["reason"] == result.reason


def test_a_bare_reply_that_does_not_parse_is_no_answer(grader):
    result = grader.grade("T6", "CRAFT add_ten(n:\n    IDLE")
    assert not result.passed and result.answer is None and result.calls == ()
    assert result.reason.startswith("no answer found in the reply")
    assert "SyntaxError" in result.reason


def test_answer_output_is_discarded_before_each_call(grader):
    answer = 'EMIT("noise")\nCRAFT add_ten(n):\n    DELIVER SHATTER(n, 9)'
    assert grader.grade("T6", answer).passed


def test_prediction_and_whole_program(grader):
    assert grader.grade_answer("T5", "11 True\n").passed
    assert grader.grade_answer("T5", "11.0 True").passed
    assert not grader.grade_answer("T5", "10 False").passed
    assert grader.grade("T5", "It prints:\n```output\n11 True\n```").passed
    assert grader.grade("T5", "PREDICTION: 11.0 True").passed
    assert not grader.grade("T5", "11 True").passed  # no output block, no PREDICTION line
    assert grader.grade("T4", "EMIT(STRAND(1, 2, 3))").passed
    assert not grader.grade("T4", "EMIT(STRAND(3, 2, 1))").passed


def test_grade_records_the_world_hash(grader):
    assert grader.grade("T4", "EMIT(1)").as_dict()["world_hash"] == WORLD.hash


def test_audit_computes_rules_and_passes():
    report = audit(WORLD, BANK)
    assert report.problems == []
    rules = {t.id: t.rules for t in report.tasks}
    assert rules == {
        "T1": ["D1", "D3"],
        "T2": ["D4"],
        "T3": ["D2"],
        "T4": ["D5"],
        "T5": ["D1", "D2"],
        "T6": ["D1"],
    }
    assert report.reference_pass == 6 and report.naive_pass == 2
    assert [e["output"] for e in report.examples] == ["4", "True"]
    assert [e["rules"] for e in report.examples] == [["D3"], ["D2"]]


def test_audit_reports_broken_promises(tmp_path):
    text = open(BANK.source, encoding="utf-8").read()
    broken = text.replace("max_naive_pass = 2", "max_naive_pass = 0").replace(
        'rules = ["D3"]', 'rules = ["D1"]'
    )
    broken = broken.replace("DELIVER SHATTER(n, 9)", "DELIVER SHATTER(n, 8)")
    path = tmp_path / "bank.toml"
    path.write_text(broken)
    report = audit(WORLD, load_bank("aliencode", "demo", path))
    text = "\n".join(report.problems)
    assert "naive solutions passing in the world: 2, at most 0 allowed" in text
    assert "example E1: declares rules ['D1'] but exposes ['D3']" in text


def test_sites_used():
    assert sites_used("SWEEP x IN STRAND(1):\n    EMIT(x, 'a', 2.5, YES)") == {
        "SWEEP",
        "STRAND",
        "EMIT",
        "literal.int",
        "literal.str",
        "literal.float",
        "literal.bool",
    }


def test_malformed_bank(tmp_path):
    path = tmp_path / "bank.toml"
    path.write_text(
        'format = 1\n[[tasks]]\nid = "A"\nkind = "guess"\n[[tasks]]\nid = "B"\nkind = "synthesis"\n'
    )
    with pytest.raises(BankError) as info:
        load_bank("aliencode", "demo", path)
    assert "task A: key 'kind'" in str(info.value) and "task B: a synthesis task needs" in str(
        info.value
    )


def invoke(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_cli_grade_exit_codes():
    assert (
        invoke(
            "grade", "--world", "demo", "--task", "T4", stdin="EMIT(ORDER(STRAND(2, 3, 1)))"
        ).exit_code
        == 0
    )
    assert invoke("grade", "--world", "demo", "--task", "T4", stdin="EMIT(4)").exit_code == 1
    assert invoke("grade", "--world", "demo", "--task", "NOPE", stdin="EMIT(4)").exit_code == 2
    assert invoke("grade", "--world", "nowhere", "--task", "T4", stdin="EMIT(4)").exit_code == 2
    out = invoke(
        "grade",
        "--world",
        "demo",
        "--task",
        "T3",
        "--json",
        stdin="CRAFT larger(a, b):\n    DELIVER a",
    )
    data = json.loads(out.output)
    assert data["passed"] is False and [c["passed"] for c in data["calls"]] == [False, True, True]
    assert set(data) == {f.name for f in fields(Grade)}  # the one verdict type
    assert data["answer"] == "CRAFT larger(a, b):\n    DELIVER a"


def test_cli_grade_reads_a_reply_as_the_episode_does():
    reply = "Here it is:\n```aliencode\nEMIT(ORDER(STRAND(2, 3, 1)))\n```\nDone."
    assert invoke("grade", "--world", "demo", "--task", "T4", stdin=reply).exit_code == 0
    out = invoke("grade", "--world", "demo", "--task", "T4", stdin="```output\n[1, 2, 3]\n```")
    assert out.exit_code == 1
    assert out.output == "T4: fail\n  the answer: no answer found in the reply\n"
    prediction = BANK.task("T5")
    assert prediction.kind == "prediction"
    expected = AlienCodeGrader(WORLD, BANK).expected(prediction)[0]
    for reply, code in ((f"```output\n{expected}\n```", 0), ("PREDICTION: -1", 1)):
        assert invoke("grade", "--world", "demo", "--task", "T5", stdin=reply).exit_code == code


def test_cli_tasks_hides_solutions_and_calls():
    out = invoke("tasks", "--world", "demo", "--json")
    assert out.exit_code == 0
    text = out.output
    assert "DELIVER" not in text.replace("DELIVER 10", "")  # only the prediction program shows code
    assert "STRAND(7, 8, 9)" not in text and "naive" not in text and "reference" not in text


def test_cli_world_check_json_shape():
    out = invoke("world", "check", "demo", "--json")
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert set(data) >= {
        "world",
        "hash",
        "ok",
        "problems",
        "rules",
        "tasks",
        "worked_examples",
        "reference_pass",
        "naive_pass",
    }
    assert set(data["tasks"][0]) == {
        "id",
        "kind",
        "band",
        "family",
        "representation",
        "depth",
        "rules",
        "n_calls",
        "distinct_outputs",
        "variants",
        "unavoidable",
        "budget",
    }
    assert set(data["validity"]) == {"strategies", "floor", "flagged", "reported_only"}


def _counting_runs(monkeypatch) -> list[int]:
    ran: list[int] = []
    run_pair = grading.run_pair

    def counted(setup, program, limits):
        ran.append(1)
        return run_pair(setup, program, limits)

    monkeypatch.setattr(grading, "run_pair", counted)
    return ran


def test_prints_agrees_with_outcomes_and_stops_at_the_first_run_that_differs(monkeypatch):
    world, limits = World(name="standard", language="aliencode"), Limits()
    task = Task(
        id="T",
        kind="synthesis",
        prompt="",
        naive="",
        reference="",
        calls=("EMIT(double(1))", "EMIT(double(2))", "EMIT(double(3))"),
    )
    right, wrong_second = (
        "CRAFT double(x):\n    DELIVER SHATTER(x, x)\n",
        "CRAFT double(x):\n    DELIVER SHATTER(x, 1)\n",
    )
    want = outcomes(world, limits, right, task)
    assert want == ("2", "4", "6")
    ran = _counting_runs(monkeypatch)
    assert prints(world, limits, right, task, want) and len(ran) == 3
    ran.clear()
    assert (
        not prints(world, limits, wrong_second, task, want) and len(ran) == 2
    )  # the third run is not needed
    # fewer or more runs than expected, or a solution that does not compile, never prints what is
    # expected
    assert not prints(world, limits, right, task, want[:2]) and not prints(
        world, limits, right, task, (*want, "8")
    )
    assert not prints(world, limits, "CRAFT double(x:\n", task, want)
    assert prints(
        world, limits, "CRAFT double(x:\n", task, outcomes(world, limits, "CRAFT double(x:\n", task)
    )


def test_cli_grade_says_a_parse_error_once_and_labels_predictions():
    reply = "```aliencode\nCRAFT add_ten(n:\n    IDLE\n```"
    broken = invoke("grade", "--world", "demo", "--task", "T6", stdin=reply)
    lines = broken.output.splitlines()
    assert broken.exit_code == 1 and lines[0] == "T6: fail" and len(lines) == 2
    assert lines[1].startswith("  the answer: [AlienError] SyntaxError")
    predicted = invoke("grade", "--world", "demo", "--task", "T5", stdin="PREDICTION: 11 True")
    assert predicted.output.splitlines() == ["T5: pass", "  prediction: pass (ok)"]
    calls = invoke(
        "grade", "--world", "demo", "--task", "T3", stdin="CRAFT larger(a, b):\n    DELIVER a"
    )
    assert [line.split(":")[0] for line in calls.output.splitlines()[1:]] == [
        "  call 1",
        "  call 2",
        "  call 3",
    ]


def test_replies_holding_the_same_answer_share_one_grade():
    fresh = AlienCodeGrader(WORLD, BANK)
    program = "EMIT(ORDER(STRAND(2, 3, 1)))"
    fenced = fresh.grade("T4", f"Sure:\n```aliencode\n{program}\n```\nDone.")
    assert fresh.grade("T4", program) is fenced and fenced.passed
    assert fresh.grade("T4", f"```aliencode\n{program}\n```") is fenced
    assert fresh.grade("T4", "EMIT(1)") is not fenced
