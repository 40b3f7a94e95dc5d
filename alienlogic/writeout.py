"""Proof trees and their checked write-out as Fitch lines.

A proof tree (`Node`, `BoxRef`) says which rule derives each formula from
which lines and boxes, and at which box depth each line stands; premises and
assumptions are its leaves. `Emitter` writes a tree through the kernel's
incremental `Checker`, so every line is checked as it is written. Layout
conditions a search over sequents cannot see are met by local variants:
citing in the other order, citing a fresh copy of a line (by `reit`, or by
AND_I with a later line and an AND elimination), and writing the lines that
belong to an outer box before a box opens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from alienworlds.ruleset.world import World

from .formulas import And, Eq, Formula, Name
from .kernel import Checker
from .proof import Citation, Proof, Theorem
from .verdict import ALIEN_AXIOM_DISABLED, ALIEN_SIDE_CONDITION


@dataclass(eq=False)
class Node:
    """A line of the proof tree: `formula` derived by `rule` from `refs` at box
    depth `depth`; leaves are premises and assumptions (`rule` "premise" or
    "hyp", `depth` the box that assumes it)."""

    formula: Formula
    rule: str
    refs: tuple = ()
    depth: int = 0

    def size(self, seen: set[int] | None = None) -> int:
        seen = set() if seen is None else seen
        if id(self) in seen:
            return 0
        seen.add(id(self))
        return 1 + sum(r.size(seen) for r in self.refs)


@dataclass(eq=False)
class BoxRef:
    """A cited box: it assumes `assumption` at depth `depth` and ends with `body`."""

    assumption: Formula
    body: Node
    depth: int

    def size(self, seen: set[int]) -> int:
        return 1 + self.body.size(seen)


class EmitFailed(Exception):
    pass


class Emitter:
    """Write a proof tree as checked Fitch lines (see module doc)."""

    def __init__(
        self, world: World, theorem: Theorem, stop: Callable[[], None] | None = None
    ) -> None:
        self.theorem = theorem
        # called once per node written or walked; may raise to end the
        # write-out (the prover's time limit)
        self.stop = stop or _never
        self.c = Checker(theorem.premises, world)
        self.hyp_lines: list[int] = []
        self.cache: list[dict[int, int]] = [{}]
        self.premise_lines: dict[Formula, list[int]] = {}

    def run(self, root: Node) -> Proof:
        for p in self.theorem.premises:
            if self.c.take(p, "premise", (), 0) is not None:
                raise EmitFailed(f"cannot assert the premise {p}")
            self.premise_lines.setdefault(p, []).append(len(self.c.steps))
        n = self.emit(root)
        steps = self.c.steps
        if n != len(steps) or steps[-1].depth != 0 or steps[-1].rule == "premise":
            n = self.copy(n)
            if n is None:
                raise EmitFailed("cannot end the proof with its goal")
        return self.c.proof(self.theorem.goal)

    @property
    def depth(self) -> int:
        return len(self.hyp_lines)

    def emit(self, node: Node) -> int:
        self.stop()
        if node.rule == "premise":
            return self.premise_lines[node.formula][0]
        if node.rule == "hyp":
            if node.depth > self.depth:
                raise EmitFailed("an assumption is cited outside its box")
            return self.hyp_lines[node.depth - 1]
        for scope in range(min(node.depth, self.depth), -1, -1):
            got = self.cache[scope].get(id(node))
            if got is not None:
                return got
        if node.depth != self.depth:
            raise EmitFailed(f"a line of depth {node.depth} is needed at depth {self.depth}")
        cites: list[Citation] = []
        for r in node.refs:
            if isinstance(r, BoxRef):
                first, last = self.emit_box(r)
                cites.append(Citation(first, last, True))
            else:
                cites.append(Citation(self.emit(r), self.emit(r)))
        n = self.step(node.formula, node.rule, cites)
        if n is None:
            raise EmitFailed(f"cannot write {node.formula} by {node.rule}")
        self.cache[self.depth][id(node)] = n
        return n

    def emit_box(self, b: BoxRef) -> tuple[int, int]:
        for n in _hoistable(b.body, self.depth, self.stop):
            self.emit(n)
        if self.c.take(b.assumption, "assume", (), self.depth + 1) is not None:
            raise EmitFailed(f"cannot assume {b.assumption}")
        first = len(self.c.steps)
        self.hyp_lines.append(first)
        self.cache.append({})
        try:
            last = self.emit(b.body)
            if last != len(self.c.steps) or (last == first and b.body.rule != "hyp"):
                last = self.copy(last)
                if last is None:
                    raise EmitFailed("cannot end a box with its last formula")
        finally:
            self.hyp_lines.pop()
            self.cache.pop()
        return first, last

    # -- one step, with layout variants -------------------------------------------

    def step(self, formula: Formula, rule: str, cites: list[Citation]) -> int | None:
        c = self.c
        r = c.take(formula, rule, tuple(cites), self.depth)
        if r is None:
            return len(c.steps)
        if r.reason_class not in (ALIEN_SIDE_CONDITION, ALIEN_AXIOM_DISABLED):
            return None
        orders = [list(cites)]
        if (
            len(cites) == 2
            and rule in ("IMPL_E", "NOT_E", "EQ_E")
            and not any(x.is_range for x in cites)
        ):
            orders.append(list(reversed(cites)))
        for order in orders[1:]:
            if c.take(formula, rule, tuple(order), self.depth) is None:
                return len(c.steps)
        positions = [i for i, x in enumerate(cites) if not x.is_range]
        for k in range(1, len(positions) + 1):
            for chosen in combinations(positions, k):
                for order in orders:
                    snap = c.snapshot()
                    new = list(order)
                    ok = True
                    for i in chosen:
                        j = i if order[0] is cites[0] else len(order) - 1 - i
                        copy = self.copy(order[j].first)
                        if copy is None:
                            ok = False
                            break
                        new[j] = Citation(copy, copy)
                    if ok and c.take(formula, rule, tuple(new), self.depth) is None:
                        return len(c.steps)
                    c.restore(snap)
        return None

    def copy(self, k: int) -> int | None:
        """A new line at the current depth holding line k's formula."""
        c, f = self.c, self.c.formula(k)
        if c.take(f, "reit", (Citation(k, k),), self.depth) is None:
            return len(c.steps)
        later = [m for m in range(len(c.steps), k, -1) if c.accessible(m)][:3]
        if not later and self.depth == 0:
            filler = Eq(Name("c"), Name("c"))
            snap = c.snapshot()
            if c.take(filler, "EQ_I", (), 0) is None:
                later = [len(c.steps)]
            else:
                c.restore(snap)
        for m in later:
            pair = And(f, c.formula(m))
            snap = c.snapshot()
            if c.take(pair, "AND_I", (Citation(k, k), Citation(m, m)), self.depth) is None:
                n = len(c.steps)
                for rule in ("AND_E1", "AND_E2"):
                    if c.take(f, rule, (Citation(n, n),), self.depth) is None:
                        return len(c.steps)
            c.restore(snap)
        return None


def _never() -> None:
    return None


def _hoistable(root: Node, depth: int, stop: Callable[[], None]) -> list[Node]:
    """Nodes under `root` that belong at box depth `depth` or shallower,
    children first (they must be written before a deeper box opens). The
    boxes of such a node are its own: they are written with it, so the
    walk does not enter them."""
    out: list[Node] = []
    seen: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        stop()
        n, done = stack.pop()
        shallow = n.rule not in ("premise", "hyp") and n.depth <= depth
        if done:
            out.append(n)
            continue
        if id(n) in seen:
            continue
        seen.add(id(n))
        if shallow:
            stack.append((n, True))
        for r in reversed(n.refs):
            if isinstance(r, BoxRef):
                if not shallow:
                    stack.append((r.body, False))
            else:
                stack.append((r, False))
    return out
