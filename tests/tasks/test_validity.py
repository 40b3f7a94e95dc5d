"""The trivial-strategy battery (tasks.validity): each strategy's answers,
what it passes on the demo bank (worked out by hand below), the AlienLogic
strategies, and the `world check` output."""

import json

from alienworlds.ruleset import standard_world
from alienworlds.tasks.aliencode_validity import count_expression, literal_free, string_literal
from alienworlds.tasks.bank import load_bank
from alienworlds.tasks.validity import aliencode_battery, chance_corrected, tally
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import run_source
from aliencode.world_schema import load

STANDARD = standard_world("aliencode")
DEMO = load("demo")


@given(st.integers(min_value=-2000, max_value=10**7))
@settings(max_examples=examples(60), deadline=None)
def test_count_expression_is_worth_n_without_a_literal(n):
    text = count_expression(n, STANDARD)
    assert not any(ch.isdigit() for ch in text)
    assert run_source(f"EMIT({text})", STANDARD).output == str(n)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30).map(str.rstrip))
@settings(max_examples=examples(80), deadline=None)
def test_string_literal_prints_its_text(text):
    assert run_source(f"EMIT({string_literal(text)})", STANDARD).output == text


def test_literal_free_keeps_the_manual_meaning():
    source = (
        "CRAFT f(xs):\n    SET t AS -3\n    SWEEP x IN CARVE(xs, 1, 120):\n"
        '        SET t AS SHATTER(t, PARE(x, 2))\n    DELIVER FUSE("a1", t)\n'
        "EMIT(f(STRAND(5, 6, 7)), 0)"
    )
    free = literal_free(source, STANDARD)
    assert '"a1"' in free and not any(ch.isdigit() for ch in free.replace('"a1"', ""))
    assert run_source(free, STANDARD).output == run_source(source, STANDARD).output == "a123 0"
    assert literal_free("EMIT(YES)", STANDARD) is None


def test_demo_bank_battery():
    # demo: literals in functions +1 (D1), OVER is <, PLUCK from one,
    # ORDER descending except at top level.
    v = aliencode_battery(DEMO, load_bank("aliencode", "demo"))
    passed = {name: list(s.passed) for name, s in v.strategies.items()}
    assert passed == {
        "naive": ["T1", "T4"],  # the bank's naive equals its reference there
        "wrapped": ["T1"],  # T4's ORDER inside a CRAFT sorts downwards
        "literal-free": [
            "T4",
            "T6",
        ],  # add_ten computes ten without a literal; T1's PLUCK(xs, 0) turns into the last element
        "printer": ["T4"],  # a whole program without inputs: its manual output printed
        "example-copy": [],
        "variants": [],  # the demo bank has none
        "self-calibrating": [],  # its run-time library is far over every answer budget
        # calibration within the budget, and safe cores: demo's rules change
        # few operations, and mostly by a shift or a reversal
        "compact-calibrating": ["T2", "T3", "T4", "T6"],
        "avoidant": ["T1", "T3", "T4", "T6"],
        # mending its tests costs tokens a world without turned tests does not repay
        "mended-calibrating": ["T3", "T4", "T6"],
        # T4 has a list of several values, built by ANNEX; the others none or no room
        "calibrating-avoidant": ["T4"],
        # demo's EXPEL follows the manual, so reading tests back by SWEEP changes nothing
        "sweep-mended-calibrating": ["T3", "T4", "T6"],
    }
    assert v.floor == round(100 * 4 / 6, 4)
    assert v.flagged == ("T1", "T2", "T3", "T4", "T6")
    assert v.as_dict()["strategies"]["printer"] == {"accuracy": round(100 / 6, 4), "passed": ["T4"]}


def test_a_flagged_task_fails_the_audit_unless_the_bank_only_reports(tmp_path):
    from alienworlds.tasks.aliencode_audit import audit

    text = open(load_bank("aliencode", "demo").source, encoding="utf-8").read()
    path = tmp_path / "bank.toml"
    path.write_text(text.replace('validity = "report"', ""))
    problems = audit(DEMO, load_bank("aliencode", "demo", path)).problems
    assert "task T2: passed by the trivial strategy compact-calibrating" in problems
    assert (
        "task T4: passed by the trivial strategies naive, literal-free, printer, "
        "compact-calibrating, avoidant, mended-calibrating, calibrating-avoidant, "
        "sweep-mended-calibrating" in problems
    )
    assert not any("T5" in p for p in problems)
    # a strategy the bank reports only counts in the floor and flags nothing
    path.write_text(text.replace('validity = "report"', 'report_only = ["compact-calibrating"]'))
    report = audit(DEMO, load_bank("aliencode", "demo", path))
    assert not any(p.startswith("task T2:") for p in report.problems)
    assert (
        "task T6: passed by the trivial strategies literal-free, compact-calibrating, avoidant, "
        "mended-calibrating, sweep-mended-calibrating" in report.problems
    )
    assert report.validity.reported == ("compact-calibrating",) and report.validity.floor == round(
        100 * 4 / 6, 4
    )


def test_tally_and_chance_correction():
    v = tally(["a", "b", "c", "d"], {"x": {"a"}, "y": {"a", "c"}}, flag=True)
    assert (v.floor, v.flagged, v.strategies["y"].passed) == (50.0, ("a", "c"), ("a", "c"))
    assert tally(["a"], {"x": {"a"}}, flag=False).flagged == ()
    assert chance_corrected(75.0, 50.0) == 50.0
    assert chance_corrected(25.0, 50.0) == -50.0
    assert chance_corrected(100.0, 100.0) is None and chance_corrected(None, 0.0) is None


def test_alienlogic_strategies():
    from alienworlds.episode.languages import language

    entry = language("alienlogic")
    bank = load_bank("alienlogic", "main")
    v = entry.battery.load()(entry.load_world("main"), bank)  # the registry's battery
    unprovable = [t.id for t in bank.tasks if t.extra.get("provable") is False]
    assert list(v.strategies["refuse-all"].passed) == unprovable
    # the standard proof passes the theorems that need no patch, and only provable ones
    sanity = {t.id for t in bank.tasks if t.family == "sanity"}
    passed = set(v.strategies["standard-proof"].passed)
    assert sanity and sanity <= passed <= {
        t.id for t in bank.tasks if t.extra.get("provable", True)
    }
    assert v.floor == max(s.accuracy for s in v.strategies.values()) and v.flagged == ()


def test_world_check_json_reports_validity():
    from alienworlds.cli.aliencode import main

    data = json.loads(CliRunner().invoke(main, ["world", "check", "demo", "--json"]).output)
    assert data["validity"]["floor"] == round(100 * 4 / 6, 4)
    assert data["validity"]["flagged"] == ["T1", "T2", "T3", "T4", "T6"]
    assert data["validity"]["reported_only"] == []
    assert set(data["validity"]["strategies"]) == {
        "naive",
        "wrapped",
        "literal-free",
        "printer",
        "example-copy",
        "variants",
        "self-calibrating",
        "compact-calibrating",
        "avoidant",
        "mended-calibrating",
        "calibrating-avoidant",
        "sweep-mended-calibrating",
    }


def test_alienlogic_world_check_json_reports_validity():
    from alienworlds.cli.alienlogic import cli

    data = json.loads(
        CliRunner().invoke(cli, ["world", "check", "main", "--json", "--no-prover"]).output
    )
    assert set(data["validity"]) == {"strategies", "floor", "flagged", "reported_only"}
    strategies = set(data["validity"]["strategies"])
    assert {
        "refuse-all",
        "standard-proof",
        "standard-prover",
        "prove-else-refuse-intuitionistic",
    } <= strategies
    assert data["validity"]["flagged"] == []


def test_answers_that_ignore_the_inputs_fail_where_the_battery_skips_them():
    # constants_fail lets the battery skip printer and example-copy answers;
    # run them anyway on the main bank and check that none passes
    from alienworlds.tasks.aliencode_grading import AlienCodeGrader, program_output
    from alienworlds.tasks.aliencode_validity import CONSTANT, candidates, constants_fail

    from aliencode import Limits

    world, bank = load("main"), load_bank("aliencode", "main")
    grader = AlienCodeGrader(world, bank)
    worked = [program_output(world, Limits(), e.program) for e in bank.examples]
    skipped = 0
    for task in bank.tasks:
        if not constants_fail(task, grader.expected(task), world):
            continue
        skipped += 1
        for name, answers in candidates(task, world, Limits(), worked).items():
            if name in CONSTANT:
                assert not any(
                    grader.grade_answer(task.id, a, stop_at_failure=True).passed for a in answers
                ), (task.id, name)
    assert (
        skipped == 69
    )  # every synthesis task; the prediction task is answered as text, never skipped


def test_constants_fail_needs_two_runs_that_differ_only_in_their_inputs():
    from alienworlds.tasks.aliencode_validity import call_shape, constants_fail
    from alienworlds.tasks.bank import Task

    task = Task(
        id="X",
        kind="synthesis",
        prompt="",
        calls=("EMIT(f(1))", "EMIT(f(2), 3)"),
        naive="CRAFT f(x):\n    DELIVER x",
    )
    assert not constants_fail(
        task, ["1", "2 3"], STANDARD
    )  # different shapes: a constant f may print both
    task = Task(
        id="X", kind="synthesis", prompt="", calls=("EMIT(f(1))", "EMIT(f(STRAND(2)))"), naive=""
    )
    assert constants_fail(task, ["1", "[2]"], STANDARD)
    assert call_shape("EMIT(f(g(1)))", STANDARD) is None  # an argument that calls could print
    assert call_shape("EMIT(f(1))", STANDARD) == call_shape("EMIT(f(\n  2))", STANDARD)


def test_the_battery_in_several_processes_gives_the_same_verdicts():
    from alienworlds.tasks.aliencode_validity import battery

    bank = load_bank("aliencode", "demo")
    alone, forked = battery(DEMO, bank, jobs=1).as_dict(), battery(DEMO, bank, jobs=3).as_dict()
    assert alone == forked
    assert alone["flagged"]  # demo's bank only reports: there is something to agree on


def test_a_graders_verdict_on_an_answer_is_decided_once(monkeypatch):
    # the generators run the battery in stages, and strategies of different
    # stages write some of the same answers: each is graded once per grader
    from alienworlds.tasks.aliencode_grading import AlienCodeGrader

    bank = load_bank("aliencode", "demo")
    task = next(t for t in bank.tasks if t.kind == "synthesis")
    grader = AlienCodeGrader(DEMO, bank)
    graded = []
    real = AlienCodeGrader.grade_answer

    def counted(self, task_id, answer, stop_at_failure=False):
        graded.append(answer)
        return real(self, task_id, answer, stop_at_failure)

    monkeypatch.setattr(AlienCodeGrader, "grade_answer", counted)
    wrong = "EMIT(1)\n"  # defines nothing the calls call
    for answer in (task.reference, wrong, task.reference, wrong):
        assert (
            grader.passes(task.id, answer)
            is real(grader, task.id, answer, stop_at_failure=True).passed
        )
    assert graded == [task.reference, wrong]
    assert grader.passes(task.id, task.reference) and not grader.passes(task.id, wrong)
