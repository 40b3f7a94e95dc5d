"""Enumerative search for compensation templates.

Templates are enumerated bottom-up by size (operations of the world at the
call's place over the holes and a few constants), keeping one template per
observed behaviour on a sample of operand values (observational
equivalence: two templates that agree on every sample, evaluate the lazy
operand on the same samples and use the holes in the same order are
interchangeable as parts of larger templates). A template that meets the
goal on the sample is then checked on every case of the full sample; a
counterexample joins the search sample and the search starts again
(counterexample-guided), a bounded number of times.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from aliencode.sites import COMPARISON, LAZY_OPERAND

from .samples import key
from .semantics import Ctx, WorldView
from .templates import Hole, Lit, Node, Op, evaluate, hole_order

# Operations templates may use, with the argument counts tried. In-place
# operations, EMIT and STRAIN (which calls user code) are statements or
# effects, never parts of a compensation.
UNARY = (
    "NEGATE",
    "GAUGE",
    "ORDER",
    "GATHER",
    "SOME_OF",
    "EVERY_OF",
    "INDEX",
    "EXTENT",
    "STRAND",
    "KNOT",
    "NADIR",
    "APEX",
    "FUSE",
)
BINARY = (
    "WEAVE",
    "SHATTER",
    "PARE",
    "HALVE",
    "RESIDUE",
    "FRACTURE",
    "COIL",
    *COMPARISON,
    "BOND",
    "RIFT",
    "PLUCK",
    "CARVE",
    "EXTENT",
    "PAIR",
    "STRAND",
    "KNOT",
    "NADIR",
    "APEX",
    "FUSE",
)
TERNARY = ("CARVE",)
NULLARY = ("STRAND", "KNOT", "FUSE")
VARIADIC = (
    "STRAND",
    "KNOT",
    "NADIR",
    "APEX",
    "FUSE",
)  # the same as templates.VARIADIC, in a fixed order
OPERATIONS = frozenset({*UNARY, *BINARY, *TERNARY, *NULLARY})  # every operation templates use
# The sites whose semantics at the place searched decide a search's outcome:
# the operations it may use, and the literals its constants are written by.
SEARCHED = OPERATIONS | {"literal.int", "literal.str", "literal.bool"}


@dataclass(frozen=True)
class Bounds:
    """How far the search goes."""

    max_size: int = 5  # operations, holes and constants in one template
    sample: int = 16  # cases the enumeration evaluates
    confirm: int = 3000  # cases of sample values a found template is checked on
    wide: int = 300  # random cases from a wider range it is checked on too
    rounds: int = 6  # counterexample-guided restarts
    budget: int = 400_000  # candidate templates built in one search (all its rounds), at most


@dataclass
class Goal:
    """What a template must do on every case (tuples of operand values on
    which the manual's operation is defined)."""

    n: int
    cases: list[tuple]
    want: Callable[[tuple, object], bool]
    lazy: int | None = None  # the operand the manual evaluates only sometimes
    forced: Callable[[tuple], bool] | None = None  # ... and whether it does on a case
    key: object = None  # identifies the goal, for remembering verdicts


@dataclass
class _Cand:
    node: Node
    size: int
    out: str  # key of the values, for comparing behaviours
    forced: tuple | None
    values: tuple = ()


def check(node: Node, goal: Goal, view: WorldView, ctx: Ctx) -> tuple | None:
    """The first case on which `node` misses the goal, or None."""
    for case in goal.cases:
        counts = [0] * goal.n

        def seen(k: int) -> None:
            counts[k] += 1

        view.reset()
        try:
            value = evaluate(node, case, view, ctx, seen)
        except Exception:  # noqa: BLE001 - any failure of a candidate disqualifies it
            return case
        if not goal.want(case, value):
            return case
        if goal.lazy is not None:
            expected = 1 if goal.forced(case) else 0
            if counts[goal.lazy] != expected:
                return case
    return None


def sample_cases(cases: list[tuple], n: int) -> list[tuple]:
    """A deterministic spread of `n` cases (first, last and random ones)."""
    if len(cases) <= n:
        return list(cases)
    rng = random.Random(len(cases))
    picked = {0, len(cases) - 1, *rng.sample(range(len(cases)), n - 2)}
    return [cases[i] for i in sorted(picked)]


class _OutOfBudget(Exception):
    """The search built as many candidates as its budget allows."""


class Enumerator:
    """Bottom-up enumeration of templates at one place of one world."""

    def __init__(
        self,
        view: WorldView,
        ctx: Ctx,
        constants: list[Lit],
        bounds: Bounds,
        sequences: bool = True,
    ) -> None:
        self.view = view
        self.ctx = ctx
        self.constants = constants
        self.sequences = sequences  # whether empty sequences are worth having as constants
        self.bounds = bounds
        self.fns = {op: view.fn(op, ctx) for op in OPERATIONS}
        self.evaluated = 0
        self.stop = bounds.budget
        self._callers: dict[tuple[str, int], Callable[..., object]] = {}

    def find(self, goal: Goal, seeds: list[Node] = (), limit: int | None = None) -> Node | None:
        """The smallest template meeting `goal` (`seeds` are tried first;
        `limit` lowers the size bound)."""
        for node in seeds:
            if check(node, goal, self.view, self.ctx) is None:
                return node
        if not goal.cases:
            return None
        cases = sample_cases(goal.cases, self.bounds.sample)
        self.stop = self.evaluated + self.bounds.budget
        for _ in range(self.bounds.rounds):
            try:
                found = self._search(
                    goal, cases, min(limit or self.bounds.max_size, self.bounds.max_size)
                )
            except _OutOfBudget:
                return None
            if found is None:
                return None
            bad = check(found, goal, self.view, self.ctx)
            if bad is None:
                return found
            cases = [*cases, bad]
        return None

    # -- one enumeration over a fixed sample -----------------------------------

    def _search(self, goal: Goal, cases: list[tuple], max_size: int) -> Node | None:
        forced_want = tuple(goal.forced(c) for c in cases) if goal.lazy is not None else None
        levels: dict[int, list[_Cand]] = {}
        seen: set = set()
        for size in range(1, max_size + 1):
            last = size == max_size
            level: list[_Cand] = []
            root = (goal, forced_want) if last else None
            for cand in self._candidates(size, goal, cases, levels, root):
                if self._meets(cand, goal, cases, forced_want):
                    return cand.node
                if last:
                    continue
                sig = (cand.out, cand.forced, _hole_sig(cand.node, goal.n))
                if sig in seen:
                    continue
                seen.add(sig)
                level.append(cand)
            levels[size] = level
        return None

    @staticmethod
    def _meets(cand: _Cand, goal: Goal, cases: list[tuple], forced_want) -> bool:
        if forced_want is not None and cand.forced != forced_want:
            return False
        values = cand.values
        return all(goal.want(case, v) for case, v in zip(cases, values))

    def _candidates(
        self, size: int, goal: Goal, cases: list[tuple], levels: dict[int, list[_Cand]], root
    ) -> Iterator[_Cand]:
        n = len(cases)
        if size == 1:
            for k in range(goal.n):
                forced = (
                    tuple([True] * n)
                    if goal.lazy == k
                    else (tuple([False] * n) if goal.lazy is not None else None)
                )
                yield self._leaf(Hole(k), tuple(c[k] for c in cases), forced)
            for lit in self.constants:
                yield self._leaf(lit, tuple([lit.value] * n), self._no_force(goal, n))
            for op in NULLARY if self.sequences else ():
                cand = self._apply(op, [], goal, cases, root)
                if cand is not None:
                    yield cand
        if size == 2 and goal.n >= 2:
            # A variadic operation over all the holes, in order, counts as
            # one argument list: size 2 whatever the number of holes.
            holes = [c for c in levels.get(1, ()) if isinstance(c.node, Hole)]
            if len(holes) == goal.n:
                for op in VARIADIC:
                    cand = self._apply(op, holes, goal, cases, root, size=2)
                    if cand is not None:
                        yield cand
        if size >= 2:
            for op in UNARY:
                for child in levels.get(size - 1, ()):
                    cand = self._apply(op, [child], goal, cases, root)
                    if cand is not None:
                        yield cand
        if size >= 3:
            for op in BINARY:
                for left_size in range(1, size - 1):
                    for left in levels.get(left_size, ()):
                        for right in levels.get(size - 1 - left_size, ()):
                            cand = self._apply(op, [left, right], goal, cases, root)
                            if cand is not None:
                                yield cand
        if size >= 4:
            for op in TERNARY:
                for i in range(1, size - 2):
                    for j in range(1, size - 1 - i):
                        k = size - 1 - i - j
                        for a in levels.get(i, ()):
                            for b in levels.get(j, ()):
                                for c in levels.get(k, ()):
                                    cand = self._apply(op, [a, b, c], goal, cases, root)
                                    if cand is not None:
                                        yield cand

    @staticmethod
    def _no_force(goal: Goal, n: int):
        return tuple([False] * n) if goal.lazy is not None else None

    def _leaf(self, node: Node, values: tuple, forced) -> _Cand:
        return _Cand(node, 1, key(values), forced, values)

    def _apply(
        self,
        op: str,
        children: list[_Cand],
        goal: Goal,
        cases: list[tuple],
        root,
        size: int | None = None,
    ) -> _Cand | None:
        """The candidate `op(children)`, or None when it fails on a case. At
        the last size (`root` given) a candidate is only worth finishing
        while it meets the goal, so it is dropped at the first miss."""
        if self.evaluated >= self.stop:
            raise _OutOfBudget
        lazy = op in LAZY_OPERAND
        values: list[object] = []
        forced = [] if goal.lazy is not None else None
        want = root[0].want if root is not None else None
        self.evaluated += 1
        if not lazy:
            call = self._caller(op, len(children))
            try:
                if not children:
                    values = [call() for _ in cases]
                    if want is not None and not all(want(c, v) for c, v in zip(cases, values)):
                        return None
                elif want is None:
                    values = list(map(call, *[c.values for c in children]))
                else:
                    for case, value in zip(cases, map(call, *[c.values for c in children])):
                        if not want(case, value):
                            return None
                        values.append(value)
            except Exception:  # noqa: BLE001 - an operation failing on a sample rules the candidate out
                return None
            if forced is not None:
                # an operation that is not lazy evaluates every argument
                forced = (
                    list(map(any, zip(*[c.forced for c in children])))
                    if children
                    else [False] * len(cases)
                )
        else:
            fn = self.fns[op]
            try:
                a, b = children
                for i in range(len(cases)):
                    asked = []

                    def thunk(b=b, i=i, asked=asked):
                        asked.append(True)
                        return b.values[i]

                    values.append(fn(a.values[i], thunk))
                    if forced is not None:
                        forced.append(a.forced[i] or (bool(asked) and b.forced[i]))
                    if want is not None and not want(cases[i], values[-1]):
                        return None
            except Exception:  # noqa: BLE001 - an operation failing on a sample rules the candidate out
                return None
        results = tuple(values)
        return _Cand(
            Op(op, tuple(c.node for c in children)),
            size or 1 + sum(c.size for c in children),
            key(results),
            tuple(forced) if forced is not None else None,
            results,
        )

    def _caller(self, op: str, n: int) -> Callable[..., object]:
        """`op`'s semantics taking the call's n argument values."""
        found = self._callers.get((op, n))
        if found is None:
            fn = self.fns[op]
            if op in VARIADIC or op in NULLARY:
                found = lambda *args: fn(list(args))  # noqa: E731
            elif op == "EXTENT" and n == 1:
                found = lambda hi: fn(0, hi)  # noqa: E731
            elif op == "CARVE" and n == 2:
                found = lambda seq, lo: fn(seq, lo, None)  # noqa: E731
            else:
                found = fn
            self._callers[(op, n)] = found
        return found


def _hole_sig(node: Node, n: int) -> object:
    order = tuple(hole_order(node))
    return order if len(order) <= n else "many"
