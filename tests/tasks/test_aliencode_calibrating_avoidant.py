"""The calibrating-avoidant strategy (tasks.aliencode_calibrating_avoidant):
its rewrites are the manual's identities, its candidates fit the budget and
never depend on a world's rules, and it passes where a change to STRAND or to
how SWEEP walks a string defeats the mended calibrator."""

from dataclasses import replace

import pytest
from alienworlds.ruleset import standard_world
from alienworlds.tasks.aliencode_budget import Budget
from alienworlds.tasks.aliencode_calibrating_avoidant import Avoider, answers
from alienworlds.tasks.aliencode_compact import answers as compact
from alienworlds.tasks.aliencode_grading import AlienCodeGrader, manual_world, outcomes
from alienworlds.tasks.bank import Task, load_bank
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import Limits, Session, compile_source, parse
from aliencode.parser import token_count
from aliencode.unparse import unparse, value_literal
from aliencode.world_schema import load

SAMPLE = slice(3, None, 6)  # every sixth task of the main bank keeps the tests fast


@pytest.fixture(scope="module")
def main():
    world = load("main")
    bank = load_bank("aliencode", "main")
    grader = AlienCodeGrader(world, bank)
    tasks = [t for t in bank.tasks if t.kind == "synthesis"][SAMPLE]
    return world, grader, {t.id: (t, grader.budget(t)) for t in tasks}


def _shown(task: Task) -> Task:
    if task.calls:
        return replace(task, calls=(task.example,))
    return replace(task, inputs=(task.example_inputs,) if task.example_inputs else ())


def test_candidates_fit_the_budget_and_print_what_the_manual_says(main):
    world, grader, tasks = main
    manual = manual_world(world)
    seen = 0
    for task, budget in tasks.values():
        shown = _shown(task)
        want = outcomes(manual, grader.limits, task.naive, shown)
        for answer in answers(task, world, budget):
            seen += 1
            assert token_count(answer) <= budget.tokens, (task.id, answer)
            assert outcomes(manual, grader.limits, answer, shown) == want, (task.id, answer)
    assert seen


def test_answers_never_depend_on_the_rules(main):
    world, _, tasks = main
    bare = replace(world, rules=())
    for task, budget in tasks.values():
        assert answers(task, world, budget) == answers(task, bare, budget), task.id


def test_prediction_tasks_get_no_answers(main):
    world, _, _ = main
    task = Task(id="P", kind="prediction", prompt="", program="EMIT(1)")
    assert answers(task, world, None) == []


WALKED = """CRAFT f(xs, w):
    SET out AS STRAND(xs, GAUGE(w))
    SWEEP c IN w:
        ANNEX(out, c)
    SWEEP x IN STRAND(1, xs):
        ANNEX(out, x)
    DELIVER out
"""

values = st.one_of(st.integers(-50, 50), st.text("ab", max_size=3))


@settings(max_examples=examples(40), deadline=None)
@given(
    xs=st.lists(values, max_size=4),
    w=st.text("xyz", max_size=5),
    walk=st.sampled_from((None, "index", "chars")),
)
def test_the_rewrites_are_the_manuals_identities(xs, w, walk):
    manual = standard_world("aliencode")
    tree = parse(WALKED, manual.keywords)
    rewritten = unparse(Avoider(tree, walk).program(tree), manual.keywords)
    call = f"EMIT(f({value_literal(xs)}, {value_literal(w)}))"
    limits = Limits()

    def printed(source: str) -> str:
        session = Session(limits)
        session.execute(compile_source(source, manual, limits))
        return session.execute(compile_source(call, manual, limits)).text()

    assert printed(rewritten) == printed(WALKED)


# A STRAND that rotates (no reversal test sees it) and strings walked
# backwards in CRAFT bodies: the mended calibrator cannot undo either.
ROTATED = """format = 1
name = "rotated-lists"
language = "aliencode"
description = "Lists rotated and strings walked backwards in CRAFT bodies."

[[rules]]
id = "V1"
name = "STRAND rotates in functions"
target = "STRAND"
actual = "(list (concat (slice args 1) (slice args 0 1)))"
scope = "function"

[[rules]]
id = "V2"
name = "SWEEP walks strings backwards in functions"
target = "SWEEP"
actual = "(if (== (slice seq 0 0) \\"\\") (reverse seq) seq)"
scope = "function"
"""

SPELL = """CRAFT spell(w):
    SET out AS STRAND("<", ">")
    SWEEP c IN w:
        ANNEX(out, c)
    DELIVER out
"""


def test_it_passes_where_avoiding_is_needed(synthesis_case):
    calls = ('EMIT(spell("xyz"))', 'EMIT(spell("pq"))')
    case = synthesis_case(ROTATED, SPELL, 'EMIT(spell("ab"))', calls)
    budget = Budget(300, 10**5)
    mended = [case.outcomes(a) for a in compact(case.task, case.world, budget, True)]
    assert case.want not in mended
    assert case.want in [case.outcomes(a) for a in answers(case.task, case.world, budget)]
