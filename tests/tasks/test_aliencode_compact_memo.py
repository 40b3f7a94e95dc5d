"""The compact calibrator's memos give what computing afresh gives
(tasks/aliencode_compact.py: `rewritten`, `_resolved`)."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest
from alienworlds.tasks import aliencode_compact as compact
from alienworlds.tasks.aliencode_compact import Plan, build, orders, solutions, usage
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.aliencode_statement_memo import IdentityMemo
from alienworlds.tasks.bank import load_bank

from aliencode import parse
from aliencode.world_schema import load

TASKS = ("T05", "T31", "T67")  # whole programs and functions, with and without inputs


class Forgetful(IdentityMemo):
    """A memo that keeps nothing: every value computed afresh."""

    def get(self, node, extra, make):
        return make()


@pytest.fixture(scope="module")
def main():
    world = load("main")
    bank = load_bank("aliencode", "main")
    grader = AlienCodeGrader(world, bank)
    return world, {t.id: (t, grader.budget(t)) for t in bank.tasks if t.id in TASKS}


def _plans(tree, task, budget):
    """Plans of every order, mode and reader, as `calibrated` makes them (and
    each with its helpers dropped one by one, as `_fitting` tries them)."""
    for mended in ("", "EXPEL", "SWEEP"):
        use = usage(tree, mended)
        for wrap, by, emit in product((False, True), orders(use), ("raw", "joined")):
            base = compact.tokens(build(tree, task, Plan((), "raw", wrap), use.kinds))
            forms = compact.allocate(use, base, budget.tokens, by)
            for n in range(len(forms), -1, -1):
                yield Plan(tuple(forms.items())[:n], emit, wrap, mended), use.kinds


def test_a_memoized_build_is_a_build_afresh(main, monkeypatch):
    """Every plan's build equals one rewritten afresh on all the plan's keys
    (also those the tree never asks about) and inlined afresh."""
    world, tasks = main
    assert set(tasks) == set(TASKS)
    for task, budget in tasks.values():
        for tree in solutions(task, world):
            plans = list(_plans(tree, task, budget))
            kept = [build(tree, task, plan, kinds) for plan, kinds in plans]
            every_key = frozenset().union(*(plan.keys for plan, _ in plans))
            with monkeypatch.context() as patch:
                patch.setattr(compact, "_REWRITTEN", Forgetful())
                patch.setattr(compact, "_RESOLVED", Forgetful())
                patch.setattr(compact, "_asked", lambda *_: every_key)
                afresh = [build(tree, task, plan, kinds) for plan, kinds in plans]
            assert kept == afresh, task.id
            texts = [compact.render(p, world.keywords) for p in kept]
            assert texts == [compact.render(p, world.keywords) for p in afresh], task.id


# a string literal, SHATTER of what `kinds` may call strings, and an integer and a boolean
SOURCE = 'SET a AS "ab"\nEMIT(SHATTER(a, b), SHATTER(1, 2), PLUCK(a, 0), YES)'
KEYS = (
    frozenset(),
    frozenset({"SHATTER"}),
    frozenset({"FUSE2", "INT"}),
    frozenset({"SHATTER", "FUSE2", "STR", "BOOL", "EMIT", "PLUCK"}),
)
KINDS = ({}, {"a": "str"}, {"a": "list"})
PARAMS = (None, (), ("b",), ("a", "b"))


def test_the_rewrite_memo_tells_apart_everything_a_rewrite_depends_on(monkeypatch):
    """One tree asked for on every keys, kinds and CRAFT parameters in turn:
    a memo key that left one out would give an earlier answer (and keys
    wrongly taken for never asked about, another rewrite than on all keys)."""
    tree = parse(SOURCE, {})
    asked = list(product(KEYS, KINDS, PARAMS))
    monkeypatch.setattr(compact, "_REWRITTEN", IdentityMemo())
    kept = [compact.rewritten(tree, *args) for args in asked * 2]
    monkeypatch.setattr(compact, "_REWRITTEN", Forgetful())
    monkeypatch.setattr(compact, "_asked", lambda *_: frozenset().union(*KEYS))
    afresh = [compact.rewritten(tree, *args) for args in asked]
    assert kept == afresh * 2
    # each of the three parts changes some rewrite of this tree
    assert len({(r.body, r.numbers, r.emits, r.strings) for r in afresh}) > len(KEYS)
    by_kinds = {compact.rewritten(tree, KEYS[-1], kinds, None).body for kinds in KINDS}
    assert len(by_kinds) == len(KINDS)
    by_params = {compact.rewritten(tree, KEYS[0], {}, params).body for params in PARAMS}
    assert len(by_params) == len(PARAMS)


def test_inlining_tells_apart_the_expressions_a_statement_s_constants_become(monkeypatch):
    """One statement object after each definition of its constants in turn:
    a memo that kept it by the constants' names alone would inline the first."""
    monkeypatch.setattr(compact, "_RESOLVED", IdentityMemo())
    use = parse("EMIT(zq_c3, zq_c1)", {}).body
    definitions = (
        'SET zq_c3 AS GAUGE("xxx")\nSET zq_c1 AS GAUGE("x")',
        'SET zq_c3 AS zq_GAUGE("xxx")\nSET zq_c1 AS GAUGE("x")',
        'SET zq_c3 AS zq_GAUGE("xxx")\nSET zq_c1 AS zq_GAUGE("x")',
        'SET zq_c3 AS GAUGE("xxx")',
    )
    bodies = [parse(text, {}).body + use for text in definitions]
    kept = [compact._inline_once(body) for body in bodies * 2]
    monkeypatch.setattr(compact, "_RESOLVED", Forgetful())
    afresh = [compact._inline_once(body) for body in bodies]
    assert kept == afresh * 2
    assert len(set(afresh)) == len(definitions)


def test_estimates_kept_per_forms_are_estimates_afresh_in_any_order(main):
    """Each forms asked for in turn, and again reversed, of one Usage: the
    same as a Usage that keeps nothing yet (the key leaves out only the order)."""
    world, tasks = main
    for task, _ in tasks.values():
        for tree, mended in product(solutions(task, world), ("", "EXPEL", "SWEEP")):
            use = usage(tree, mended)
            keys = sorted(use.counts)
            asked = [
                {key: (k + n) % max(len(compact.forms_of(key, mended)), 1) for key in keys[k::n]}
                for n in (1, 2, 3, 5)
                for k in range(n)
            ]
            asked += [dict(reversed(forms.items())) for forms in asked]
            for forms in asked:
                fresh = replace(use, added={})
                assert use.estimate(7, forms) == fresh.estimate(7, forms), (task.id, forms)
            assert len({use.estimate(0, forms) for forms in asked}) > 1
