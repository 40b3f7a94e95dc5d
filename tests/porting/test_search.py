"""The enumerative search: its operations get the operands the interpreter
passes, and its fast evaluation of a candidate (every sample at once, the
short-circuit bookkeeping computed after) finds what evaluating case by case
finds, after as many candidates."""

from __future__ import annotations

import pytest
from alienworlds.porting.compensation import Compensator
from alienworlds.porting.search import (
    BINARY,
    NULLARY,
    TERNARY,
    UNARY,
    VARIADIC,
    Bounds,
    Enumerator,
    _Cand,
    _OutOfBudget,
)
from alienworlds.porting.semantics import TOP_LEVEL, Ctx, WorldView, operands
from alienworlds.porting.templates import Op
from alienworlds.porting.types import BOOL, INT, STR, list_of
from alienworlds.ruleset import parse_world

from aliencode.sites import LAZY_OPERAND
from aliencode.world_schema import SCHEMA


def rule(target: str, actual: str, scope: str = "anywhere") -> str:
    return (
        f'[[rules]]\nid = "R{abs(hash((target, actual, scope))) % 10**6}"\nname = "r"\n'
        f'target = "{target}"\nactual = "{actual}"\nscope = "{scope}"\n'
    )


def world(rules: str):
    return parse_world(f'format = 1\nname = "t"\nlanguage = "aliencode"\n{rules}', "t.toml", SCHEMA)


ARITIES = [
    *((op, 0) for op in NULLARY),
    *((op, 1) for op in UNARY),
    *((op, 2) for op in BINARY),
    *((op, 3) for op in TERNARY),
    *((op, n) for op in VARIADIC for n in (1, 2, 3, 4)),
]


@pytest.mark.parametrize(("op", "n"), ARITIES)
def test_a_call_gets_the_operands_the_interpreter_passes(op, n):
    enumerator = Enumerator(WorldView(world("")), TOP_LEVEL, [], Bounds())
    got = []
    enumerator.fns[op] = lambda *args: got.append(args)
    args = [[k, "x"] for k in range(n)]
    enumerator._caller(op, n)(*args)
    assert got == [tuple(operands(op, args))]


class CaseByCase(Enumerator):
    """The definition for operations that are not lazy: each candidate
    evaluated one sample at a time, the record of forced lazy operands kept
    as it goes (a lazy operation is evaluated as the search does)."""

    def _apply(self, op, children, goal, cases, root, size=None):
        if op in LAZY_OPERAND:
            return super()._apply(op, children, goal, cases, root, size)
        if self.evaluated >= self.stop:
            raise _OutOfBudget
        self.evaluated += 1
        fn = self.fns[op]
        want = root[0].want if root is not None else None
        values, forced = [], [] if goal.lazy is not None else None
        for i, case in enumerate(cases):
            try:
                value = fn(*operands(op, [c.values[i] for c in children]))
            except Exception:  # noqa: BLE001 - as the search: a failing candidate is out
                return None
            values.append(value)
            if forced is not None:
                forced.append(any(c.forced[i] for c in children))
            if want is not None and not want(case, value):
                return None
        return _Cand(
            Op(op, tuple(c.node for c in children)),
            size or 1 + sum(c.size for c in children),
            repr(tuple(values)),
            tuple(forced) if forced is not None else None,
            tuple(values),
        )


WORLDS = [
    rule("RIFT", "(and a b)") + rule("BOND", "(or a b)"),
    rule("BOND", "(and b a)", "function") + rule("NEGATE", "(not (not x))"),
    rule("SHATTER", "(- a b)") + rule("PLUCK", "(get seq (+ i 1))"),
    rule("OVER", "(>= a b)") + rule("STRAND", "(reverse args)"),
]
GOALS = [
    ("RIFT", (BOOL, BOOL)),
    ("BOND", (BOOL, INT)),
    ("SOME_OF", (list_of(BOOL),)),
    ("SHATTER", (INT, INT)),
    ("OVER", (INT, INT)),
    ("PLUCK", (list_of(INT), INT)),
    ("FUSE", (STR, STR)),
]
SMALL = Bounds(max_size=4, budget=6_000, rounds=3)


@pytest.mark.parametrize("rules", WORLDS)
@pytest.mark.parametrize("ctx", [TOP_LEVEL, Ctx(True, False)])
def test_the_search_finds_what_case_by_case_evaluation_finds(rules, ctx):
    view = WorldView(world(rules))
    compensator = Compensator(view, SMALL)
    for op, types in GOALS:
        goal, _ = compensator._goal("value", op, types, ctx)
        kinds = frozenset().union(*(t.kinds() for t in types))
        found = []
        for kind in (Enumerator, CaseByCase):
            enumerator = kind(view, ctx, compensator.constants(ctx, kinds), SMALL)
            found.append((enumerator.find(goal), enumerator.evaluated))
        assert found[0] == found[1], (op, types)


def test_candidates_and_their_short_circuit_record_are_as_case_by_case():
    # the candidates kept at each size (and so every later one) are the same
    view = WorldView(world(WORLDS[0]))
    compensator = Compensator(view, SMALL)
    goal, _ = compensator._goal("value", "RIFT", (BOOL, BOOL), TOP_LEVEL)
    kept = []
    for kind in (Enumerator, CaseByCase):
        enumerator = kind(view, TOP_LEVEL, compensator.constants(TOP_LEVEL, frozenset()), SMALL)
        level1 = [
            c for c in enumerator._candidates(1, goal, goal.cases[:16], {}, None) if c is not None
        ]
        cands = list(enumerator._candidates(2, goal, goal.cases[:16], {1: level1}, None))
        kept.append([(c.node, c.out, c.forced) for c in cands])
    assert kept[0] == kept[1] and kept[0]
