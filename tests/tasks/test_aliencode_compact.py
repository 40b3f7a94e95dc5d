"""The budget-aware calibrating strategy (tasks.aliencode_compact), plain and
mended (reading its tests back by EXPEL or by SWEEP): every candidate fits
its task's answer budget, prints what the manual says, and never depends on a
world's rules; its helpers undo the changes they test for, the mended ones
also those that turn their tests around, and the SWEEP-reading ones also a
reader changed to agree with a turned builder."""

from dataclasses import replace

import pytest
from alienworlds.tasks.aliencode_budget import Budget
from alienworlds.tasks.aliencode_compact import answers, count
from alienworlds.tasks.aliencode_grading import AlienCodeGrader, manual_world, outcomes
from alienworlds.tasks.bank import Task, load_bank

from aliencode import Limits, parse
from aliencode.parser import token_count
from aliencode.world_schema import load

SAMPLE = slice(None, None, 6)  # every sixth task of the main bank keeps the tests fast
# plain, mended reading back by EXPEL, mended reading back by SWEEP
MODES = [(False, "EXPEL"), (True, "EXPEL"), (True, "SWEEP")]


@pytest.fixture(scope="module")
def main():
    world = load("main")
    bank = load_bank("aliencode", "main")
    grader = AlienCodeGrader(world, bank)
    tasks = [t for t in bank.tasks if t.kind == "synthesis"][SAMPLE]
    return world, grader, {t.id: (t, grader.budget(t)) for t in tasks}


def _shown(task: Task) -> Task:
    """The task with its example as its only run (what every system sees)."""
    if task.calls:
        return replace(task, calls=(task.example,))
    return replace(task, inputs=(task.example_inputs,) if task.example_inputs else ())


@pytest.mark.parametrize("mended, reader", MODES)
def test_every_candidate_fits_the_budget(main, mended, reader):
    world, _, tasks = main
    for task, budget in tasks.values():
        candidates = answers(task, world, budget, mended, reader)
        assert candidates, task.id
        for answer in candidates:
            assert token_count(answer) <= budget.tokens, (task.id, answer)
            assert count(parse(answer, world.keywords)) == token_count(answer)


@pytest.mark.parametrize("mended, reader", MODES)
def test_candidates_print_what_the_manual_says(main, mended, reader):
    world, grader, tasks = main
    manual = manual_world(world)
    for task, budget in tasks.values():
        shown = _shown(task)
        want = outcomes(manual, grader.limits, task.naive, shown)
        for answer in answers(task, world, budget, mended, reader):
            assert outcomes(manual, grader.limits, answer, shown) == want, (task.id, answer)


@pytest.mark.parametrize("mended, reader", MODES)
def test_answers_never_depend_on_the_rules(main, mended, reader):
    world, _, tasks = main
    bare = replace(world, rules=())
    for task, budget in tasks.values():
        got = answers(task, world, budget, mended, reader)
        assert got == answers(task, bare, budget, mended, reader), task.id


def test_prediction_tasks_get_no_answers(main):
    world, _, _ = main
    task = Task(id="P", kind="prediction", prompt="", program="EMIT(1)")
    assert answers(task, world, None) == []


SKEWED = """format = 1
name = "skewed-compact"
language = "aliencode"
description = "One change per helper the compact calibrator has."

[[rules]]
id = "S1"
name = "PLUCK counts from one"
target = "PLUCK"
actual = "(get seq (- i 1))"

[[rules]]
id = "S2"
name = "CARVE includes its end"
target = "CARVE"
actual = "(slice seq lo (if (== hi none) none (+ hi 1)))"

[[rules]]
id = "S3"
name = "OVER compares the other way"
target = "OVER"
actual = "(< a b)"

[[rules]]
id = "S4"
name = "WEAVE is off by three"
target = "WEAVE"
actual = "(+ (- a b) 3)"

[[rules]]
id = "S5"
name = "Integer literals in CRAFT bodies are encoded (the calls' literals are not)"
target = "literal.int"
actual = "(^ n 27)"
scope = "function"

[[rules]]
id = "S6"
name = "RESIDUE takes its operands the other way"
target = "RESIDUE"
actual = "(% b a)"

[[rules]]
id = "S7"
name = "ANNEX puts the value first"
target = "ANNEX"
actual = "(prepend seq val)"

[[rules]]
id = "S8"
name = "APEX gives the smallest"
target = "APEX"
actual = "(min (if (== (len args) 1) (get args 0) args))"
"""

SOLUTION = """CRAFT f(xs):
    SET out AS STRAND()
    SWEEP x IN CARVE(xs, 1, 3):
        UPON OVER(x, PLUCK(xs, 0)):
            ANNEX(out, WEAVE(x, RESIDUE(x, 3)))
    ANNEX(out, APEX(xs))
    DELIVER out
"""


def test_helpers_undo_the_changes_they_test_for(tmp_path):
    path = tmp_path / "world.toml"
    path.write_text(SKEWED)
    world = load(str(path))
    task = Task(
        id="X",
        kind="synthesis",
        prompt="",
        example="EMIT(f(STRAND(2, 5, 1, 7)))",
        calls=("EMIT(f(STRAND(4, 9, 3, 8)))", "EMIT(f(STRAND(1, 2, 3, 4)))"),
        naive=SOLUTION,
    )
    limits = Limits()
    want = outcomes(manual_world(world), limits, SOLUTION, task)
    assert outcomes(world, limits, SOLUTION, task) != want
    candidates = answers(task, world, Budget(600, 10**5))
    assert want in [outcomes(world, limits, answer, task) for answer in candidates]


# What a calibrator trusts, changed: lists built in CRAFT bodies (where every
# helper runs) come out backwards, and lengths at top level (where constants
# are defined) are one short; PLUCK counts from one, so a helper must test it.
TURNED = """format = 1
name = "turned-tests"
language = "aliencode"
description = "Changes that turn a calibrator's tests around."

[[rules]]
id = "U1"
name = "STRAND builds backwards in functions"
target = "STRAND"
actual = "(list (reverse args))"
scope = "function"

[[rules]]
id = "U2"
name = "GAUGE at top level counts one fewer"
target = "GAUGE"
actual = "(- (len seq) 1)"
scope = "top"

[[rules]]
id = "U3"
name = "PLUCK counts from one"
target = "PLUCK"
actual = "(get seq (- i 1))"
"""

PICK = """CRAFT pick(xs, i):
    DELIVER STRAND(PLUCK(xs, i), PLUCK(xs, 0))
"""


PICK_CALLS = ("EMIT(pick(STRAND(4, 9, 3, 8), 2))", "EMIT(pick(STRAND(1, 2), 1))")


def test_mended_helpers_undo_what_turns_the_plain_ones_tests_around(synthesis_case):
    case = synthesis_case(TURNED, PICK, "EMIT(pick(STRAND(5, 6, 7), 1))", PICK_CALLS)
    budget = Budget(400, 10**5)
    plain = [case.outcomes(a) for a in answers(case.task, case.world, budget)]
    mended = [case.outcomes(a) for a in answers(case.task, case.world, budget, True)]
    assert case.want not in plain
    assert case.want in mended


# The reader agrees with the builder in CRAFT bodies: a list built there comes
# out backwards and EXPEL takes its first element, so a test that builds a
# list and reads it back by EXPEL sees nothing; the last value a SWEEP walks
# still shows the order.
AGREEING = (
    TURNED
    + """
[[rules]]
id = "U4"
name = "EXPEL takes the first element in functions"
target = "EXPEL"
actual = "0"
scope = "function"
"""
)


def test_sweep_reading_helpers_see_what_an_agreeing_reader_hides(synthesis_case):
    case = synthesis_case(AGREEING, PICK, "EMIT(pick(STRAND(5, 6, 7), 1))", PICK_CALLS)
    budget = Budget(400, 10**5)
    by_expel = [case.outcomes(a) for a in answers(case.task, case.world, budget, True)]
    swept = answers(case.task, case.world, budget, True, "SWEEP")
    assert case.want not in by_expel
    assert case.want in [case.outcomes(a) for a in swept]


def test_an_unknown_reader_is_refused(main):
    world, _, tasks = main
    task, budget = next(iter(tasks.values()))
    with pytest.raises(ValueError, match="unknown reader 'PLUCK'"):
        answers(task, world, budget, True, "PLUCK")
