"""Small proofs that put one step of a chosen rule in a chosen context.

A probe is a proof whose last step (the target) uses the rule under study;
the lines before it set the scene. The context varies what a world's side
conditions can look at: the box depth of the target, where its cited lines
come from (a premise line, a reiterated copy, a box's assumption, a
conjunction taken apart), the order of the cited lines and of the
citations, whether a cited line was cited before, the shapes of the
formulas, and (for a `conclusion` patch) which formula the target claims.

`sample(rule, rng, n)` draws probes at random from these contexts; every
probe returned is accepted by the standard calculus up to its target (the
target itself may claim a non-standard conclusion). Probes are plain data
(`alienlogic.Proof`); nothing here knows any world.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from alienlogic import Citation, Formula, Proof, Step, parse_formula
from alienlogic.formulas import BOT, And, Impl, Not, Or
from alienlogic.kernel import CONCLUDE, walk

from .grammar import grammar

# Formulas the metavariables of a context range over: every shape, a few sizes.
SHAPE_POOL = tuple(
    parse_formula(t)
    for t in (
        "p",
        "q",
        "P(a)",
        "R(a, b)",
        "NOT(p)",
        "AND(p, q)",
        "OR(p, q)",
        "IMPL(p, q)",
        "FORALL(x, P(x))",
        "EXISTS(x, P(x))",
        "EQ(a, b)",
        "BOT",
        "NOT(NOT(p))",
        "IMPL(IMPL(p, q), r)",
        "AND(p, AND(q, r))",
        "IMPL(p, IMPL(q, r))",
        "OR(NOT(p), q)",
    )
)
# fresh atoms for the boxes that only set the depth
SCAFFOLD = tuple(parse_formula(t) for t in ("s1", "s2", "s3", "s4"))
MAX_DEPTH = 3
SOURCES = ("premise", "reit", "assume", "and")


@dataclass
class Builder:
    """Lines of a proof under construction; line numbers start at 1."""

    steps: list[Step] = field(default_factory=list)
    premises: list[Formula] = field(default_factory=list)
    depth: int = 0

    def _add(self, formula: Formula, rule: str, cites: tuple[Citation, ...] = ()) -> int:
        n = len(self.steps) + 1
        self.steps.append(Step(n, self.depth, formula, rule, cites))
        return n

    def premise(self, formula: Formula) -> int:
        self.premises.append(formula)
        return self._add(formula, "premise")

    def assume(self, formula: Formula) -> int:
        self.depth += 1
        return self._add(formula, "assume")

    def sibling(self, formula: Formula) -> int:
        """An assumption at the current depth: closes the box there, opens another."""
        return self._add(formula, "assume")

    def close(self) -> None:
        self.depth -= 1

    def line(self, formula: Formula, rule: str, *cites: int | tuple[int, int]) -> int:
        return self._add(
            formula,
            rule,
            tuple(
                Citation(c[0], c[1], True) if isinstance(c, tuple) else Citation(c, c)
                for c in cites
            ),
        )

    def proof(self) -> Proof:
        goal = self.steps[-1].formula if self.steps else BOT
        return Proof(tuple(self.premises), goal, tuple(self.steps))


@dataclass(frozen=True)
class Context:
    """Where and how the target step stands."""

    depth: int
    sources: tuple[str, ...]  # per fact, in citation order
    facts_reversed: bool  # fact lines written in the reverse of citation order
    cites_reversed: bool  # for two-line rules: the citations listed the other way
    reuse: int | None  # which fact (in citation order) is cited once before the target, if any
    reuse_by: str = "reit"  # the rule citing it then: reit | OR_I1 | AND_I (which cites it twice)


@dataclass(frozen=True)
class Probe:
    """A probe proof and the step it studies."""

    proof: Proof
    rule: str
    target: int  # the target step's number (the last step)

    @property
    def text(self) -> str:
        return str(self.proof)


def _place_facts(b: Builder, facts: list[Formula], ctx: Context) -> list[int]:
    """Write the facts the target cites, with the scaffolding boxes around
    them; return each fact's line in citation order."""
    order = list(range(len(facts)))
    if ctx.facts_reversed:
        order.reverse()
    lines: dict[int, int] = {}
    top: dict[int, int] = {}
    for i in order:
        src = ctx.sources[i]
        if src == "premise":
            lines[i] = b.premise(facts[i])
        elif src == "reit":
            top[i] = b.premise(facts[i])
        elif src == "and":
            top[i] = b.premise(And(facts[i], facts[i]))
    assumed = [i for i in order if ctx.sources[i] == "assume"]
    for level in range(1, ctx.depth + 1):
        if level == ctx.depth and assumed:
            lines[assumed[0]] = b.assume(facts[assumed[0]])
        else:
            b.assume(SCAFFOLD[level - 1])
    for i in order:
        if ctx.sources[i] == "reit":
            lines[i] = b.line(facts[i], "reit", top[i])
        elif ctx.sources[i] == "and":
            lines[i] = b.line(facts[i], "AND_E1", top[i])
    if ctx.reuse is not None and ctx.reuse < len(facts):
        k = ctx.reuse
        if ctx.reuse_by == "OR_I1":
            b.line(Or(facts[k], facts[k]), "OR_I1", lines[k])
        elif ctx.reuse_by == "AND_I":
            b.line(And(facts[k], facts[k]), "AND_I", lines[k], lines[k])
        else:
            b.line(facts[k], "reit", lines[k])
    return [lines[i] for i in range(len(facts))]


def _two(ctx: Context, a: int, b: int) -> tuple[int, int]:
    return (b, a) if ctx.cites_reversed else (a, b)


def _build(rule: str, rng: random.Random, ctx: Context) -> Builder | None:
    """One probe of `rule` in `ctx`, or None when the context does not fit it."""
    A, B, C = (rng.choice(SHAPE_POOL) for _ in range(3))
    b = Builder()
    if rule in ("premise", "assume", "LEM", "EQ_I"):
        _place_facts(b, [], ctx)
        if rule == "premise":
            b.premise(A)
        elif rule == "assume":
            b.assume(A)
        elif rule == "LEM":
            b.line(Or(A, Not(A)), "LEM")
        else:
            t = rng.choice(("a", "b", "f(a)"))
            b.line(parse_formula(f"EQ({t}, {t})"), "EQ_I")
        return b
    if rule in ("reit", "AND_E1", "AND_E2", "OR_I1", "OR_I2", "BOT_E", "DNE"):
        fact = {"AND_E1": And(A, B), "AND_E2": And(A, B), "BOT_E": BOT, "DNE": Not(Not(A))}.get(
            rule, A
        )
        (a,) = _place_facts(b, [fact], ctx)
        result = {
            "reit": A,
            "AND_E1": A,
            "AND_E2": B,
            "OR_I1": Or(A, B),
            "OR_I2": Or(B, A),
            "BOT_E": B,
            "DNE": A,
        }[rule]
        b.line(result, rule, a)
        return b
    if rule in ("AND_I", "IMPL_E", "NOT_E", "EQ_E"):
        if rule == "AND_I":
            facts, result = [A, B], And(A, B)
        elif rule == "IMPL_E":
            facts, result = [Impl(A, B), A], B
        elif rule == "NOT_E":
            facts, result = [A, Not(A)], BOT
        else:
            s, t = rng.choice((("a", "b"), ("b", "a"), ("a", "f(a)"), ("f(a)", "a")))
            body = rng.choice(
                ("P({})", "R({}, {})", "R({}, c)", "NOT(P({}))", "FORALL(y, R({}, y))")
            )
            before = parse_formula(body.format(s, s))
            after = parse_formula(body.format(t, t))
            facts, result = [parse_formula(f"EQ({s}, {t})"), before], after
        if ctx.cites_reversed and rule == "AND_I":
            result = And(B, A)
        x, y = _place_facts(b, facts, ctx)
        b.line(result, rule, *_two(ctx, x, y))
        return b
    if rule == "FORALL_E":
        body = rng.choice(("P({})", "R({}, a)", "IMPL(P({}), Q({}))", "NOT(P({}))"))
        (a,) = _place_facts(b, [parse_formula(f"FORALL(x, {body.format('x', 'x')})")], ctx)
        t = rng.choice(("a", "c", "f(a)", "x"))
        b.line(parse_formula(body.format(t, t)), rule, a)
        return b
    if rule == "EXISTS_I":
        body = rng.choice(("P({})", "R({}, b)", "AND(P({}), Q({}))"))
        t = rng.choice(("a", "c", "f(a)"))
        (a,) = _place_facts(b, [parse_formula(body.format(t, t))], ctx)
        b.line(parse_formula(f"EXISTS(x, {body.format('x', 'x')})"), rule, a)
        return b
    if rule == "FORALL_I":
        if rng.random() < 0.3:
            _place_facts(b, [], ctx)
            b.line(parse_formula("EQ(c, c)"), "EQ_I")
            b.line(parse_formula("FORALL(x, EQ(x, x))"), rule, len(b.steps))
            return b
        body = rng.choice(("P({})", "R({}, a)", "NOT(P({}))", "OR(P({}), Q({}))"))
        (a,) = _place_facts(b, [parse_formula(f"FORALL(x, {body.format('x', 'x')})")], ctx)
        b.line(parse_formula(body.format("c", "c")), "FORALL_E", a)
        b.line(parse_formula(f"FORALL(y, {body.format('y', 'y')})"), rule, len(b.steps))
        return b
    if rule == "IMPL_I":
        _place_facts(b, [], ctx)
        start = b.assume(A)
        kind = rng.choice(("alone", "and", "reit"))
        if kind == "and":
            b.line(And(A, A), "AND_I", start, start)
        elif kind == "reit":
            b.line(A, "reit", start)
        last = b.steps[-1].formula
        end = len(b.steps)
        b.close()
        b.line(Impl(A, last), rule, (start, end))
        return b
    if rule == "NOT_I":
        kind = rng.choice(("bot", "contradiction"))
        if kind == "bot":
            _place_facts(b, [], ctx)
            start = b.assume(BOT)
            b.close()
            b.line(Not(BOT), rule, (start, start))
            return b
        (n,) = _place_facts(b, [Not(A)], ctx)
        start = b.assume(A)
        b.line(BOT, "NOT_E", start, n)
        end = len(b.steps)
        b.close()
        b.line(Not(A), rule, (start, end))
        return b
    if rule == "OR_E":
        same = rng.random() < 0.5
        if same:
            (a,) = _place_facts(b, [Or(A, A)], ctx)
            s1 = b.assume(A)
            s2 = b.sibling(A)
            b.close()
            b.line(A, rule, a, (s1, s1), (s2, s2))
            return b
        a, c = _place_facts(b, [Or(A, B), C], ctx)
        s1 = b.assume(A)
        e1 = b.line(C, "reit", c)
        s2 = b.sibling(B)
        e2 = b.line(C, "reit", c)
        b.close()
        b.line(C, rule, a, (s1, e1), (s2, e2))
        return b
    if rule == "EXISTS_E":
        a, c = _place_facts(b, [parse_formula("EXISTS(x, P(x))"), C], ctx)
        start = b.assume(parse_formula("P(c)"))
        if C.free & {"c"}:
            return None
        end = b.line(C, "reit", c)
        b.close()
        b.line(C, rule, a, (start, end))
        return b
    raise ValueError(f"no probe template for {rule}")


# how many facts (cited lines written before the target) each rule's probes place
FACTS = {
    "premise": 0,
    "assume": 0,
    "LEM": 0,
    "EQ_I": 0,
    "FORALL_I": 1,
    "IMPL_I": 0,
    "NOT_I": 1,
    "OR_E": 2,
    "EXISTS_E": 2,
    "AND_I": 2,
    "IMPL_E": 2,
    "NOT_E": 2,
    "EQ_E": 2,
}


def _context(rule: str, rng: random.Random) -> Context:
    n = FACTS.get(rule, 1)
    depth = rng.choice((0, 0, 1, 1, 2, 3))
    sources = [
        rng.choice(SOURCES if depth else ("premise", "premise", "reit", "and")) for _ in range(n)
    ]
    if sources.count("assume") > 1:  # one box assumption per context: the innermost box's
        sources[sources.index("assume", sources.index("assume") + 1)] = "reit"
    reuse = rng.randrange(n) if n and rng.random() < 0.3 else None
    return Context(
        depth,
        tuple(sources),
        rng.random() < 0.5,
        rng.random() < 0.5,
        reuse,
        rng.choice(("reit", "OR_I1", "AND_I")),
    )


def sample(rule: str, rng: random.Random, n: int) -> list[Probe]:
    """Up to `n` distinct probes of `rule`, standard up to their target."""
    out: dict[str, Probe] = {}
    for _ in range(n * 4):
        if len(out) >= n:
            break
        b = _build(rule, rng, _context(rule, rng))
        if b is None:
            continue
        probe = Probe(b.proof(), rule, len(b.steps))
        facts = walk(probe.proof)
        if len(facts) != probe.target or any(f.failure for f in facts):
            continue
        out.setdefault(probe.text, probe)
    return list(out.values())


def conclusion_variants(probe: Probe) -> list[Probe]:
    """The probe with its target claiming, instead of the standard conclusion,
    each formula a conclusion patch of the rule could derive there."""
    facts = walk(probe.proof)
    last = facts[-1]
    if last.view is None or last.failure is not None and last.stage != CONCLUDE:
        return []
    g = grammar(probe.rule)
    seen = {probe.proof.steps[-1].formula}
    out = []
    for value in g.conclusion_values(last.view):
        if value in seen:
            continue
        seen.add(value)
        step = probe.proof.steps[-1]
        steps = probe.proof.steps[:-1] + (
            Step(step.number, step.depth, value, step.rule, step.citations),
        )
        out.append(Probe(Proof(probe.proof.premises, value, steps), probe.rule, probe.target))
    return out


def chain(first: Probe, second: Probe) -> Probe | None:
    """One proof doing `first`, then `second` (its lines renumbered, its
    premises added): a verdict then tests both targets. None when the
    standard calculus refuses the joint proof before its last step (a
    premise of one can spoil a fresh constant of the other)."""
    offset = len(first.proof.steps)

    def moved(c: Citation) -> Citation:
        return Citation(c.first + offset, c.last + offset, c.is_range)

    steps = first.proof.steps + tuple(
        Step(s.number + offset, s.depth, s.formula, s.rule, tuple(map(moved, s.citations)))
        for s in second.proof.steps
    )
    proof = Proof(first.proof.premises + second.proof.premises, second.proof.goal, steps)
    facts = walk(proof)
    if (
        len(facts) != len(steps)
        or any(f.failure for f in facts[:-1])
        or facts[-1].stage not in (None, CONCLUDE)
    ):
        return None
    return Probe(proof, second.rule, len(steps))


__all__ = ["Builder", "Context", "Probe", "SHAPE_POOL", "chain", "conclusion_variants", "sample"]
