"""The main AlienCode world and its bank keep their promises (issues 4 and
11): the audit runs clean, and every count and validity fact is recomputed
here from the bank, the grader and the battery rather than trusted."""

import re
from collections import Counter

import pytest
from alienworlds.episode.aliencode_env import bank_audit
from alienworlds.tasks.aliencode_disclosure import input_values, shown_text
from alienworlds.tasks.aliencode_grading import AlienCodeGrader, manual_world, outcomes
from alienworlds.tasks.bank import load_bank
from alienworlds.tasks.compare import normalise

from aliencode import Limits, run_source
from aliencode.sites import ARITHMETIC
from aliencode.world_schema import load

WORLD = load("main")
BANK = load_bank("aliencode", "main")


@pytest.fixture(scope="module")
def report():
    # the audit an environment of main reads: computed once in a run of the suite, by
    # whichever process asks first (the suite's cache directory starts empty)
    return bank_audit(WORLD, BANK, Limits())


@pytest.fixture(scope="module")
def expected():
    grader = AlienCodeGrader(WORLD, BANK)
    return {t.id: grader.expected(t) for t in BANK.tasks}


def test_audit_is_clean(report):
    assert report.problems == []


def test_world_shape(report):
    rules = report.world.rules
    assert len(rules) == 34
    assert sum(r.red_herring for r in rules) == 8
    assert sum(r.scope != "anywhere" and not r.red_herring for r in rules) >= 2
    by_target = {r.target: r.actual for r in rules if not r.red_herring}
    assert by_target["literal.int"] == "(^ n 27)"
    assert by_target["PLUCK"] == "(get seq (- i 1))"
    assert by_target["SHATTER"] == "(* a b)"


def test_bank_shape(report):
    tasks = report.tasks
    assert len(tasks) == 70 and report.reference_pass == 70 and report.naive_pass == 0
    assert Counter(t.family for t in tasks) == {
        "base": 37,
        "nested": 15,
        "ceiling": 8,
        "coverage": 10,
    }
    assert Counter(t.kind for t in tasks) == {"synthesis": 69, "prediction": 1}
    keystone = {r.id for r in report.world.rules if r.target in ("PLUCK", "CARVE")}
    assert sum(bool(keystone & set(t.rules)) for t in tasks) >= 51
    listed = {r for t in tasks for r in t.rules}
    assert listed == {r.id for r in report.world.rules}
    assert Counter(e["band"] for e in report.examples) == {
        b: 2 for b in ("apply", "interact", "scope", "engineer", "algorithm")
    }


def test_every_task_has_enough_private_runs_and_outputs(expected):
    for task in BANK.tasks:
        if task.kind == "prediction":
            continue  # the program is the question; it has no private inputs
        runs = len(task.calls) or len(task.inputs)
        distinct = {tuple(normalise(o)) for o in expected[task.id]}
        assert runs >= 5 and len(distinct) >= 3, (task.id, runs, len(distinct))


def test_whole_program_tasks_take_inputs():
    assert all(t.inputs for t in BANK.tasks if t.whole_program)
    assert sum(bool(t.inputs) for t in BANK.tasks) == 15


def test_nothing_shown_is_private_or_an_expected_output(expected):
    for task in BANK.tasks:
        squeezed = re.sub(r"\s+", "", task.example)
        assert all(squeezed != re.sub(r"\s+", "", call) for call in task.calls), task.id
        if task.example_inputs:
            shown = input_values(task.example_inputs, WORLD, Limits())
            assert all(input_values(table, WORLD, Limits()) != shown for table in task.inputs), (
                task.id
            )
        text = shown_text(task, WORLD, Limits())
        for output in expected[task.id]:
            stated = "\n".join(normalise(output))
            assert len(stated) < 2 or not re.search(
                r"(?<![\w.])" + re.escape(stated) + r"(?![\w.])", text
            ), (task.id, stated)


def test_variants_are_manual_correct_and_fail_in_the_world():
    manual = manual_world(WORLD)
    grader = AlienCodeGrader(WORLD, BANK)
    for task in BANK.tasks:
        if task.kind == "prediction":
            continue
        assert len(task.variants) >= 2, task.id
        naive = outcomes(manual, Limits(), task.naive, task)
        for variant in task.variants:
            assert variant.strip() != task.naive.strip()
            assert outcomes(manual, Limits(), variant, task) == naive, task.id
            assert not grader.grade(task.id, variant).passed, task.id


def test_every_strategy_stays_at_zero(report):
    """Every strategy flags, the adaptive ones included, and none passes a
    task: the floor is 0 (docs/validity.md)."""
    validity = report.validity
    assert set(validity.strategies) == {
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
    assert validity.reported == () and validity.flagged == ()
    assert all(score.passed == () for score in validity.strategies.values())
    assert validity.floor == 0


def test_operations_a_calibrator_trusts_are_changed():
    """Lists built in CRAFT bodies come out backwards and lengths taken at
    top level are one short, and tasks need both (docs/validity.md)."""
    world = load("main")
    assert (
        run_source(
            "CRAFT f():\n    DELIVER STRAND(26, 25)\nEMIT(f(), STRAND(26, 25))", world
        ).output
        == "[2, 1] [1, 2]"
    )
    assert (
        run_source('CRAFT f():\n    DELIVER GAUGE("ab")\nEMIT(GAUGE("ab"), f())', world).output
        == "1 2"
    )


# Built in a CRAFT body, read back through EXPEL there, printed: only the
# printing tells the main world from the manual.
READ_BACK = """CRAFT built():
    SET xs AS STRAND("a", "b", "c")
    ANNEX(xs, "d")
    DELIVER xs
CRAFT last():
    DELIVER EXPEL(built())
CRAFT before_last():
    SET xs AS built()
    EXPEL(xs)
    DELIVER EXPEL(xs)
EMIT(last(), before_last())
EMIT(built())
"""


def test_a_list_built_in_a_craft_reads_back_as_in_the_manual():
    """EXPEL in a CRAFT body takes the first element (R34): with STRAND
    building backwards and ANNEX prepending there, a test that builds a list
    and reads it back sees the manual's answer; the printed list does not."""
    world = load("main")
    read, printed = run_source(READ_BACK, world).output.split("\n")[:2]
    manual_read, manual_printed = run_source(READ_BACK, manual_world(world)).output.split("\n")[:2]
    assert read == manual_read
    assert printed != manual_printed


def test_no_primitive_adds():
    world = load("main")
    for op in ARITHMETIC:
        # 26 and 25 are the world's spellings of 1 and 2
        assert run_source(f"EMIT({op}(26, 25))", world).output != "3", op
