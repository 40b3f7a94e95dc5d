"""Saturation over sequents: every formula a world's rules can put on a line,
within declared bounds.

Bounds: a finite universe U of formulas (every line's formula must lie in
U), a finite set of terms (quantifier instances and witnesses), and a box
depth D. A sequent is a stack of open assumptions (at most D) and a formula;
`derived[ctx]` is the set of formulas some proof within the bounds can write
on a line whose open assumptions are ctx. Lines of enclosing boxes are
citable (a line of ctx may cite what its prefixes derive), and a box closes
into its parent through IMPL_I, NOT_I, OR_E or EXISTS_E, so the sets depend
on one another; they are computed as the least fixed point, context by
context, each rule applied through `Oracle` (the checker's own rule code with
the world's patches). Only assumptions a box rule can discharge are worth
opening (another box never contributes to the lines outside it), which keeps
the number of contexts small.

The abstraction forgets what a sequent cannot see: line numbers, citation
counts, premise multiplicities and whether a line is a premise line (layout
side conditions are taken as satisfiable). It therefore derives at least
what any real proof within the bounds derives, so a goal missing from the
top-level set has no proof within them, however long.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from alienworlds.ruleset.world import World

from .formulas import (
    BOT,
    And,
    Eq,
    Exists,
    Forall,
    Formula,
    Impl,
    Name,
    Node,
    Not,
    Or,
    Quantified,
    Term,
    children,
)
from .oracle import Context, Oracle, box, line
from .proof import Theorem
from .substitution import match_instance, replaces, substitute

FRESH_NAMES = ("k1", "k2", "k3", "k4")


class Unsupported(ValueError):
    """A world whose patches saturation cannot soundly over-approximate."""


@dataclass(frozen=True)
class Bounds:
    universe: tuple[Formula, ...]
    terms: tuple[Term, ...]
    depth: int

    @property
    def formula_size(self) -> int:
        return max((f.size for f in self.universe), default=0)

    def as_data(self) -> dict[str, object]:
        return {
            "universe": [str(f) for f in self.universe],
            "terms": [str(t) for t in self.terms],
            "depth": self.depth,
            "lines": None,
            "formula_size": self.formula_size,
        }


def ground_terms(formulas) -> list[Term]:
    """The closed terms occurring in `formulas` (no bound variable inside)."""
    out: dict[Term, None] = {}

    def visit(node: Node, bound: frozenset[str]) -> None:
        if isinstance(node, Term):
            if not node.free & bound:  # bound variables never contain "/" (function symbols do)
                out.setdefault(node, None)
            for c in children(node):
                visit(c, bound)
            return
        if isinstance(node, Quantified):
            visit(node.body, bound | {node.var})
            return
        for c in children(node):
            visit(c, bound)

    for f in formulas:
        visit(f, frozenset())
    return list(out)


def fresh_constants(formulas, k: int) -> list[Name]:
    used = set().union(*(f.free for f in formulas)) if formulas else set()
    return [Name(n) for n in FRESH_NAMES if n not in used][:k]


def closure(formulas, terms) -> list[Formula]:
    """Subformulas of `formulas`, quantifier bodies instantiated with `terms`."""
    out: dict[Formula, None] = {}
    stack = list(formulas)
    while stack:
        f = stack.pop()
        if f in out:
            continue
        out[f] = None
        if isinstance(f, Quantified):
            stack.extend(substitute(f.body, f.var, t) for t in terms)
        elif isinstance(f, (Not, And, Or, Impl)):
            stack.extend(children(f))
    return sorted(out, key=lambda f: (f.size, str(f)))


def default_terms(theorem: Theorem, fresh: int) -> tuple[Term, ...]:
    """The theorem's closed terms and `fresh` constants it does not use."""
    formulas = (*theorem.premises, theorem.goal)
    return tuple(ground_terms(formulas) + fresh_constants(formulas, fresh))


def default_bounds(
    theorem: Theorem,
    depth: int = 3,
    fresh: int = 1,
    extra=(),
    terms: tuple[Term, ...] | None = None,
) -> Bounds:
    """Subformulas of the theorem (and `extra`), closed under instantiation
    with the theorem's closed terms and `fresh` new constants, plus BOT."""
    formulas = (*theorem.premises, theorem.goal, *extra)
    if terms is None:
        terms = default_terms(theorem, fresh)
    universe = closure((*formulas, BOT), terms)
    return Bounds(tuple(universe), tuple(terms), depth)


@dataclass
class Saturation:
    bounds: Bounds
    theorem: Theorem
    derived: dict[tuple[Formula, ...], set[Formula]] = field(default_factory=dict)
    # (context, formula) -> (rule, citations): ("line", context, formula) or ("box", child context,
    # last formula)
    why: dict[tuple[tuple[Formula, ...], Formula], tuple] = field(default_factory=dict)
    seconds: float = 0.0
    passes: int = 0

    @property
    def top(self) -> set[Formula]:
        return self.derived[()]

    @property
    def goal_derivable(self) -> bool:
        return self.theorem.goal in self.derived[()]


class _Index:
    """The universe, sorted by what rules look for."""

    def __init__(
        self, universe: tuple[Formula, ...], terms: tuple[Term, ...], oracle: Oracle
    ) -> None:
        self.set = frozenset(universe)
        self.all = universe
        self.of: dict[type, list[Formula]] = {}
        for f in universe:
            self.of.setdefault(type(f), []).append(f)
        self.lem = [
            f for f in self.of.get(Or, []) if type(f.right) is Not and f.right.body is f.left
        ]
        self.refl = [f for f in self.of.get(Eq, []) if f.left is f.right]
        self.instances: dict[Formula, list[Formula]] = {}
        for f in (*self.of.get(Forall, []), *self.of.get(Exists, [])):
            self.instances[f] = [g for g in universe if match_instance(f.body, f.var, g)[0]]
        self.constants = [t for t in terms if type(t) is Name]
        self.impl_of: dict[Formula, dict[Formula, Formula]] = {}
        for f in self.of.get(Impl, []):
            self.impl_of.setdefault(f.left, {})[f.right] = f
        self.not_of = {f.body: f for f in self.of.get(Not, [])}
        self.oracle = oracle
        self.box_rules_patched = any(
            r in oracle.conclusions for r in ("IMPL_I", "NOT_I", "OR_E", "EXISTS_E")
        )
        self._assumable: dict[int, list[Formula]] = {}
        self._rewrites: dict[tuple[Formula, Formula], list[Formula]] = {}

    def assumable(self, depth: int, premises: tuple[Formula, ...]) -> list[Formula]:
        """Assumptions worth opening a box for, in a box whose parent is at
        `depth`: some box rule the world allows at `depth` could discharge
        them into a formula of the universe. (Boxes no rule discharges never
        contribute a line outside themselves.)"""
        got = self._assumable.get(depth)
        if got is not None:
            return got
        o, U = self.oracle, self.set
        if self.box_rules_patched:
            got = list(self.all)
        else:
            ctx = Context.of(premises)
            found: dict[Formula, None] = {}
            for f in self.of.get(Impl, []):
                if o.applies("IMPL_I", (box(f.left, f.right),), f, depth, ctx):
                    found.setdefault(f.left)
            for f in self.of.get(Not, []):
                if o.applies("NOT_I", (box(f.body, BOT),), f, depth, ctx):
                    found.setdefault(f.body)
            for f in self.of.get(Or, []):
                if any(
                    o.derive("OR_E", (line(f), box(f.left, chi), box(f.right, chi)), depth, ctx)
                    is chi
                    for chi in self.all
                ):
                    found.setdefault(f.left)
                    found.setdefault(f.right)
            for f in self.of.get(Exists, []):
                if (
                    f.var not in f.body.free
                ):  # a vacuous quantifier: the box assumes the body itself, no eigenvariable
                    if any(
                        o.derive("EXISTS_E", (line(f), box(f.body, chi)), depth, ctx) is chi
                        for chi in self.all
                    ):
                        found.setdefault(f.body)
                    continue
                for c in self.constants:
                    a = substitute(f.body, f.var, c)
                    if a in U and any(
                        c.name not in chi.free
                        and o.derive("EXISTS_E", (line(f), box(a, chi)), depth, ctx) is chi
                        for chi in self.all
                    ):
                        found.setdefault(a)
            got = list(found)
        self._assumable[depth] = got
        return got

    def rewrites(self, eq: Eq, source: Formula) -> list[Formula]:
        key = (eq, source)
        got = self._rewrites.get(key)
        if got is None:
            got = self._rewrites[key] = [
                g for g in self.all if g is not source and replaces(source, eq.left, eq.right, g)
            ]
        return got


def saturate(
    world: World | Oracle, theorem: Theorem, bounds: Bounds, deadline: float | None = None
) -> Saturation:
    """The least fixed point of derivable sequents within `bounds`."""
    start = time.perf_counter()
    oracle = world if isinstance(world, Oracle) else Oracle(world)
    if oracle.layout_conclusions:
        raise Unsupported(
            f"the patched conclusion of {', '.join(oracle.layout_conclusions)} reads the proof's "
            "layout; "
            "saturation over sequents cannot over-approximate it"
        )
    ix = _Index(bounds.universe, bounds.terms, oracle)
    premises = tuple(p for p in dict.fromkeys(theorem.premises) if p in ix.set)
    contexts: list[tuple[Formula, ...]] = [()]
    level = [()]
    for d in range(bounds.depth):
        level = [c + (a,) for c in level for a in ix.assumable(d, premises)]
        contexts.extend(level)
    result = Saturation(bounds, theorem, {c: set() for c in contexts})
    ctx_of = {c: Context.of(premises, c) for c in contexts}
    order = sorted(contexts, key=len, reverse=True)
    changed = True
    while changed:
        result.passes += 1
        changed = False
        for c in order:
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeoutError("saturation ran out of time")
            if _close(c, result, ctx_of[c], oracle, ix, premises, bounds.depth):
                changed = True
    result.seconds = time.perf_counter() - start
    return result


def _close(
    c, result: Saturation, ctx: Context, o: Oracle, ix: _Index, premises, max_depth: int
) -> bool:
    """Apply every rule at context c until nothing new appears; report growth.
    Each new formula's first justification goes to `result.why`."""
    derived, why = result.derived, result.why
    d = len(c)
    mine = derived[c]
    outer: set[Formula] = set()
    for k in range(d):
        outer |= derived[c[:k]]
    before = len(mine)
    if d and not mine:
        if not o.applies("assume", (), c[-1], d, ctx):
            return False
        mine.add(c[-1])
        why[(c, c[-1])] = ("assume", ())
    U = ix.set
    applies, derive = o.applies, o.derive
    children_of = [c + (a,) for a in ix.assumable(d, premises)] if d < max_depth else []

    def at(f: Formula) -> tuple:
        """A cited line: the innermost context of c's chain deriving f."""
        if f in mine:
            return ("line", c, f)
        return ("line", next(c[:k] for k in range(d - 1, -1, -1) if f in derived[c[:k]]), f)

    while True:
        avail = outer | mine
        new: dict[Formula, tuple] = {}

        def add(f: Formula | None, rule: str, refs: tuple = ()) -> None:
            if f is not None and f in U and f not in mine and f not in new:
                new[f] = (rule, refs)

        for p in premises:
            if applies("premise", (), p, d, ctx):
                add(p, "premise")
        for f in ix.lem:
            if applies("LEM", (), f, d, ctx):
                add(f, "LEM")
        for f in ix.refl:
            if applies("EQ_I", (), f, d, ctx):
                add(f, "EQ_I")
        for f in outer - mine:
            if applies("reit", (line(f),), f, d, ctx):
                add(f, "reit", (at(f),))
        # conjunction
        if o.determined("AND_I") and "AND_I" not in o.conclusions:
            for f in ix.of.get(And, []):
                if f not in mine and f.left in avail and f.right in avail:
                    add(
                        derive("AND_I", (line(f.left), line(f.right)), d, ctx),
                        "AND_I",
                        (at(f.left), at(f.right)),
                    )
        elif "AND_I" in o.conclusions and o.determined("AND_I"):
            for a in avail:
                for b in avail:
                    add(derive("AND_I", (line(a), line(b)), d, ctx), "AND_I", (at(a), at(b)))
        for rule in ("AND_E1", "AND_E2", "DNE"):
            if not o.allowed(rule):
                continue
            for f in avail:
                if type(f) is And if rule != "DNE" else (type(f) is Not and type(f.body) is Not):
                    add(derive(rule, (line(f),), d, ctx), rule, (at(f),))
        # disjunction introduction (any disjunct)
        for f in ix.of.get(Or, []):
            if f in mine:
                continue
            if f.left in avail and applies("OR_I1", (line(f.left),), f, d, ctx):
                add(f, "OR_I1", (at(f.left),))
            elif f.right in avail and applies("OR_I2", (line(f.right),), f, d, ctx):
                add(f, "OR_I2", (at(f.right),))
        # implication, negation elimination (both citation orders)
        for f in avail:
            tf = type(f)
            if tf is Impl and f.left in avail:
                add(
                    derive("IMPL_E", (line(f), line(f.left)), d, ctx), "IMPL_E", (at(f), at(f.left))
                )
                add(
                    derive("IMPL_E", (line(f.left), line(f)), d, ctx), "IMPL_E", (at(f.left), at(f))
                )
            elif tf is Not and f.body in avail:
                add(derive("NOT_E", (line(f), line(f.body)), d, ctx), "NOT_E", (at(f), at(f.body)))
                add(derive("NOT_E", (line(f.body), line(f)), d, ctx), "NOT_E", (at(f.body), at(f)))
        if BOT in avail and o.allowed("BOT_E"):
            for f in ix.all:
                if f not in mine and applies("BOT_E", (line(BOT),), f, d, ctx):
                    add(f, "BOT_E", (at(BOT),))
        # quantifiers
        for f in ix.of.get(Forall, []):
            if f not in mine and o.allowed("FORALL_I"):
                for g in ix.instances[f]:
                    if g in avail and applies("FORALL_I", (line(g),), f, d, ctx):
                        add(f, "FORALL_I", (at(g),))
                        break
        for f in avail:
            if type(f) is Forall and o.allowed("FORALL_E"):
                for g in ix.instances.get(f, ()):
                    if g not in mine and applies("FORALL_E", (line(f),), g, d, ctx):
                        add(g, "FORALL_E", (at(f),))
        for f in ix.of.get(Exists, []):
            if f not in mine and o.allowed("EXISTS_I"):
                for g in ix.instances[f]:
                    if g in avail and applies("EXISTS_I", (line(g),), f, d, ctx):
                        add(f, "EXISTS_I", (at(g),))
                        break
        if o.allowed("EQ_E"):
            for e in avail:
                if type(e) is not Eq:
                    continue
                for g in avail:
                    for h in ix.rewrites(e, g):
                        if h in mine:
                            continue
                        if applies("EQ_E", (line(e), line(g)), h, d, ctx):
                            add(h, "EQ_E", (at(e), at(g)))
                        elif applies("EQ_E", (line(g), line(e)), h, d, ctx):
                            add(h, "EQ_E", (at(g), at(e)))
        # box rules: the boxes are the child contexts
        for child in children_of:
            a = child[-1]
            inside = derived[child]
            if not inside:
                continue
            if o.allowed("IMPL_I"):
                if "IMPL_I" in o.conclusions:
                    for b in inside:
                        add(derive("IMPL_I", (box(a, b),), d, ctx), "IMPL_I", (("box", child, b),))
                else:
                    for b, f in ix.impl_of.get(a, {}).items():
                        if (
                            b in inside
                            and f not in mine
                            and applies("IMPL_I", (box(a, b),), f, d, ctx)
                        ):
                            add(f, "IMPL_I", (("box", child, b),))
            if (
                o.allowed("NOT_I")
                and BOT in inside
                and ("NOT_I" in o.conclusions or a in ix.not_of)
            ):
                add(derive("NOT_I", (box(a, BOT),), d, ctx), "NOT_I", (("box", child, BOT),))
        if o.allowed("OR_E"):
            for f in avail:
                if type(f) is not Or or d >= max_depth:
                    continue
                left, right = derived.get(c + (f.left,)), derived.get(c + (f.right,))
                if not left or not right:
                    continue
                for chi in left & right:
                    if chi not in mine:
                        add(
                            derive("OR_E", (line(f), box(f.left, chi), box(f.right, chi)), d, ctx),
                            "OR_E",
                            (at(f), ("box", c + (f.left,), chi), ("box", c + (f.right,), chi)),
                        )
        if o.allowed("EXISTS_E") and d < max_depth:
            for f in avail:
                if type(f) is not Exists:
                    continue
                for a in ix.instances.get(f, ()):
                    inside = derived.get(c + (a,))
                    if not inside:
                        continue
                    for chi in inside:
                        if chi not in mine:
                            add(
                                derive("EXISTS_E", (line(f), box(a, chi)), d, ctx),
                                "EXISTS_E",
                                (at(f), ("box", c + (a,), chi)),
                            )
        if not new:
            break
        for f, justification in new.items():
            why[(c, f)] = justification
        mine.update(new)
    return len(mine) != before
