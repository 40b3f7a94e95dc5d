"""The avoidant strategy (tasks.aliencode_avoidant): its rewrites are
manual-correct, its cores are fixed data, and its answers never depend on a
world's rules."""

from dataclasses import replace

import pytest
from alienworlds.ruleset import standard_world
from alienworlds.tasks import aliencode_avoidant as av
from alienworlds.tasks.aliencode_grading import manual_world, outcomes
from alienworlds.tasks.aliencode_statement_memo import IdentityMemo
from alienworlds.tasks.bank import load_bank
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import Limits, parse, run_source
from aliencode.unparse import unparse, unparse_expr
from aliencode.world_schema import load

MAIN = load("main")
BANK = load_bank("aliencode", "main")
STANDARD = standard_world("aliencode")
SYNTHESIS = [t for t in BANK.tasks if t.kind == "synthesis"]
# every seventh task, and the cores that rewrite the most (hand cores) plus a few random ones
SAMPLE_TASKS = SYNTHESIS[::7]
SAMPLE_CORES = av.HAND_CORES + av.CORES[len(av.HAND_CORES) :: 6]


@given(
    st.integers(min_value=-500, max_value=10**6),
    st.sampled_from([o for o in av.OPTIONS["int"] if o != "keep"]),
)
@settings(max_examples=examples(40), deadline=None)
def test_an_integer_is_a_length_without_a_literal(n, option):
    text = unparse_expr(av.int_expr(n, option))
    assert not any(ch.isdigit() for ch in text)
    assert run_source(f"EMIT({text})", STANDARD).output == str(n)


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(lambda x: round(x, 3)))
@settings(max_examples=examples(40), deadline=None)
def test_a_float_as_fracture_is_worth_the_literal(x):
    source = f"EMIT({x!r})"
    rewritten = unparse(av.rewrite_tree(parse(source), av.HAND_CORES[1]))
    assert run_source(rewritten, STANDARD).output == run_source(source, STANDARD).output


@pytest.mark.parametrize("task", SAMPLE_TASKS, ids=lambda t: t.id)
def test_every_rewrite_prints_what_the_naive_solution_prints_under_the_manual(task):
    manual = manual_world(MAIN)
    want = outcomes(manual, Limits(), task.naive, task)
    params = tuple(task.inputs[0]) if task.inputs else ()
    for source in (task.naive, *task.variants):
        for core in SAMPLE_CORES:
            for answer in av.rewrites(source, MAIN, params, (core,)):
                assert outcomes(manual, Limits(), answer, task) == want, (core.name, answer)


def test_the_safe_core_avoids_indexing_and_integer_literals():
    task = next(t for t in SYNTHESIS if "PLUCK" in t.naive and "CARVE" in t.naive)
    params = tuple(task.inputs[0]) if task.inputs else ()
    for answer in av.rewrites(task.naive, MAIN, params, av.HAND_CORES[:1]):
        assert not any(ch.isdigit() for ch in answer.replace("av_", "")), answer
        for word in ("PLUCK(", "CARVE(", "EXTENT(", "INDEX(", "PAIR("):
            assert word not in answer


def test_random_cores_are_deterministic_distinct_and_valid():
    randoms = av.CORES[len(av.HAND_CORES) :]
    assert len(randoms) >= 20
    assert [av.random_core(k) for k in range(len(randoms))] == list(randoms)
    assert len({tuple(sorted(c.choices.items())) for c in av.CORES}) == len(av.CORES)
    for core in av.CORES:
        assert all(option in av.OPTIONS[kind] for kind, option in core.choices.items())


class RulelessView:
    """What answers() may read of a world; touching its rules is an error."""

    def __init__(self, world):
        self.name, self.language, self.keywords = world.name, world.language, world.keywords
        self.surface = world.surface

    @property
    def rules(self):
        raise AssertionError("answers() read the world's rules")


def test_answers_do_not_depend_on_the_rules():
    other = replace(MAIN, rules=MAIN.rules[::2])
    for task in BANK.tasks[::9]:
        mine = av.answers(task, MAIN)
        assert mine == av.answers(task, other) == av.answers(task, RulelessView(MAIN))
        assert bool(mine) == (task.kind == "synthesis")


class Forgetful(IdentityMemo):
    """A memo that keeps nothing: every value computed afresh."""

    def get(self, node, extra, make):
        return make()


def test_counters_made_lists_once_per_tree_are_made_afresh(monkeypatch):
    """_rewrite keeps a tree's counters made lists (_WITH_LISTS): every core
    on every solution with counters writes what it writes afresh."""
    trees = [
        parse(source, MAIN.keywords)
        for task in SYNTHESIS
        for source in (task.naive, *task.variants)
        if av.counters(parse(source, MAIN.keywords))
    ]
    assert len(trees) >= 5
    monkeypatch.setattr(av, "_WITH_LISTS", IdentityMemo())
    kept = [av._rewrite(tree, core) for tree in trees for core in av.CORES]
    monkeypatch.setattr(av, "_WITH_LISTS", Forgetful())
    assert kept == [av._rewrite(tree, core) for tree in trees for core in av.CORES]
