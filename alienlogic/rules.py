"""The standard inference rules (docs/alienlogic.md), one function each.

A rule sees the resolved citations of a step and either raises Rejection or
returns what the step may derive: a formula (the line must be exactly it) or
a test of the line's formula (for rules that derive "any formula" of some
form, such as OR_I1 or FORALL_E). Keeping "what is derived" separate from
"does the rule apply" lets a world replace the first (a `conclusion` patch)
while the second still holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .formulas import BOT, And, Eq, Exists, Forall, Formula, Impl, Name, Not, Or
from .substitution import match_instance, replaces
from .verdict import Rejection

LINE, BOX = "line", "box"


@dataclass(frozen=True)
class Ref:
    """A resolved citation: a line (start == end) or a closed box start-end."""

    start: int
    end: int
    first: Formula  # the line's formula; for a box, its assumption
    last: Formula  # the line's formula; for a box, its last line
    is_box: bool = False

    def __str__(self) -> str:
        return f"box {self.start}-{self.end}" if self.is_box else f"line {self.start}"


class ProofContext(Protocol):
    """What a rule may ask about the proof around the step."""

    def premise_uses(self, formula: Formula) -> tuple[int, int]:
        """(times the premises list it, times it may still be asserted)."""

    def occurs(self, name: str) -> str | None:
        """Where `name` occurs free in a premise or an open assumption, or None."""


Conclusion = Formula | Callable[[Formula], None]
Refs = tuple[Ref, ...]


@dataclass(frozen=True)
class StandardRule:
    name: str
    citations: tuple[str, ...]  # LINE or BOX, in order
    check: Callable[[Refs, ProofContext], Conclusion]
    summary: str  # what it derives, for manuals and errors


def _any(formula: Formula) -> None:
    return None


def _premise(refs: Refs, ctx: ProofContext) -> Conclusion:
    def fits(f: Formula) -> None:
        listed, left = ctx.premise_uses(f)
        if not listed:
            raise Rejection("NOT_A_PREMISE", f"{f} is not among the premises")
        if not left:
            raise Rejection(
                "PREMISE_REPEATED",
                f"{f} is listed {listed} time(s) among the premises and already asserted that "
                "often",
            )

    return fits


def _assume(refs: Refs, ctx: ProofContext) -> Conclusion:
    return _any


def _lem(refs: Refs, ctx: ProofContext) -> Conclusion:
    def fits(f: Formula) -> None:
        if not (type(f) is Or and type(f.right) is Not and f.right.body is f.left):
            raise Rejection("WRONG_CONCLUSION", f"LEM derives OR(φ, NOT(φ)), not {f}")

    return fits


def _eq_i(refs: Refs, ctx: ProofContext) -> Conclusion:
    def fits(f: Formula) -> None:
        if not (type(f) is Eq and f.left is f.right):
            raise Rejection("WRONG_CONCLUSION", f"EQ_I derives EQ(t, t), not {f}")

    return fits


def _reit(refs: Refs, ctx: ProofContext) -> Conclusion:
    return refs[0].first


def _and_i(refs: Refs, ctx: ProofContext) -> Conclusion:
    return And(refs[0].first, refs[1].first)


def _conjunction(ref: Ref, rule: str) -> And:
    if type(ref.first) is not And:
        raise Rejection(
            "WRONG_SHAPE", f"{rule} needs a conjunction AND(φ, ψ), but {ref} is {ref.first}"
        )
    return ref.first


def _and_e1(refs: Refs, ctx: ProofContext) -> Conclusion:
    return _conjunction(refs[0], "AND_E1").left


def _and_e2(refs: Refs, ctx: ProofContext) -> Conclusion:
    return _conjunction(refs[0], "AND_E2").right


def _or_i(side: str) -> Callable[[Refs, ProofContext], Conclusion]:
    def rule(refs: Refs, ctx: ProofContext) -> Conclusion:
        a = refs[0]

        def fits(f: Formula) -> None:
            if not (type(f) is Or and getattr(f, side) is a.first):
                raise Rejection(
                    "WRONG_CONCLUSION",
                    f"the line must be a disjunction whose {side} disjunct is {a.first} ({a}), "
                    f"not {f}",
                )

        return fits

    return rule


def _or_e(refs: Refs, ctx: ProofContext) -> Conclusion:
    a, left, right = refs
    if type(a.first) is not Or:
        raise Rejection("WRONG_SHAPE", f"OR_E needs a disjunction OR(φ, ψ), but {a} is {a.first}")
    for box, disjunct in ((left, a.first.left), (right, a.first.right)):
        if box.first is not disjunct:
            raise Rejection("MISMATCH", f"{box} assumes {box.first}, not the disjunct {disjunct}")
    if left.last is not right.last:
        raise Rejection(
            "MISMATCH", f"the boxes end with different formulas: {left.last} and {right.last}"
        )
    return left.last


def _impl_i(refs: Refs, ctx: ProofContext) -> Conclusion:
    return Impl(refs[0].first, refs[0].last)


def _not_i(refs: Refs, ctx: ProofContext) -> Conclusion:
    box = refs[0]
    if box.last is not BOT:
        raise Rejection(
            "WRONG_SHAPE", f"NOT_I needs a box ending with BOT; {box} ends with {box.last}"
        )
    return Not(box.first)


def _impl_e(refs: Refs, ctx: ProofContext) -> Conclusion:
    a, b = refs
    for major, minor in ((a, b), (b, a)):
        if type(major.first) is Impl and major.first.left is minor.first:
            return major.first.right
    if type(a.first) is not Impl and type(b.first) is not Impl:
        raise Rejection("WRONG_SHAPE", "IMPL_E needs an implication IMPL(φ, ψ) among its citations")
    raise Rejection(
        "MISMATCH", f"neither cited line is the antecedent of the other ({a.first}; {b.first})"
    )


def _not_e(refs: Refs, ctx: ProofContext) -> Conclusion:
    a, b = refs
    for neg, pos in ((a, b), (b, a)):
        if type(neg.first) is Not and neg.first.body is pos.first:
            return BOT
    if type(a.first) is not Not and type(b.first) is not Not:
        raise Rejection("WRONG_SHAPE", "NOT_E needs a negation NOT(φ) among its citations")
    raise Rejection("MISMATCH", f"the cited lines are not φ and NOT(φ) ({a.first}; {b.first})")


def _bot_e(refs: Refs, ctx: ProofContext) -> Conclusion:
    if refs[0].first is not BOT:
        raise Rejection("WRONG_SHAPE", f"BOT_E needs BOT, but {refs[0]} is {refs[0].first}")
    return _any


def _dne(refs: Refs, ctx: ProofContext) -> Conclusion:
    f = refs[0].first
    if not (type(f) is Not and type(f.body) is Not):
        raise Rejection("WRONG_SHAPE", f"DNE needs NOT(NOT(φ)), but {refs[0]} is {f}")
    return f.body.body


def _forall_e(refs: Refs, ctx: ProofContext) -> Conclusion:
    a = refs[0]
    if type(a.first) is not Forall:
        raise Rejection("WRONG_SHAPE", f"FORALL_E needs FORALL(x, φ), but {a} is {a.first}")

    def fits(f: Formula) -> None:
        if not match_instance(a.first.body, a.first.var, f)[0]:
            raise Rejection("NOT_AN_INSTANCE", f"{f} is not an instance of {a.first}")

    return fits


def _exists_i(refs: Refs, ctx: ProofContext) -> Conclusion:
    a = refs[0]

    def fits(f: Formula) -> None:
        if type(f) is not Exists:
            raise Rejection("WRONG_CONCLUSION", f"EXISTS_I derives EXISTS(x, φ), not {f}")
        if not match_instance(f.body, f.var, a.first)[0]:
            raise Rejection("NOT_AN_INSTANCE", f"{a} ({a.first}) is not an instance of {f}")

    return fits


def _witness(pattern: Formula, var: str, instance: Formula, where: str) -> str | None:
    """The constant that `instance` puts for `var` in `pattern` (None when
    `var` does not occur); raise Rejection when it is no such instance."""
    ok, term = match_instance(pattern, var, instance)
    if not ok:
        raise Rejection(
            "NOT_AN_INSTANCE", f"{where} {instance} is not an instance of {pattern} for {var}"
        )
    if term is None:
        return None
    if type(term) is not Name:
        raise Rejection(
            "NOT_AN_INSTANCE",
            f"{where} {instance} puts the term {term} for {var}; it must be a constant",
        )
    return term.name


def _fresh(name: str, ctx: ProofContext, others: tuple[tuple[Formula, str], ...]) -> None:
    for formula, what in others:
        if name in formula.free:
            raise Rejection(
                "NOT_FRESH", f"the constant {name} is not fresh: it occurs in {what} {formula}"
            )
    place = ctx.occurs(name)
    if place is not None:
        raise Rejection("NOT_FRESH", f"the constant {name} is not fresh: it occurs in {place}")


def _forall_i(refs: Refs, ctx: ProofContext) -> Conclusion:
    a = refs[0]

    def fits(f: Formula) -> None:
        if type(f) is not Forall:
            raise Rejection("WRONG_CONCLUSION", f"FORALL_I derives FORALL(x, φ), not {f}")
        c = _witness(f.body, f.var, a.first, f"{a}")
        if c is not None:
            _fresh(c, ctx, ((f, "the result"),))

    return fits


def _exists_e(refs: Refs, ctx: ProofContext) -> Conclusion:
    a, box = refs
    if type(a.first) is not Exists:
        raise Rejection("WRONG_SHAPE", f"EXISTS_E needs EXISTS(x, φ), but {a} is {a.first}")
    c = _witness(a.first.body, a.first.var, box.first, f"the assumption of {box}")
    if c is not None:
        _fresh(c, ctx, ((a.first, "the existential"), (box.last, f"the last line of {box}")))
    return box.last


def _eq_e(refs: Refs, ctx: ProofContext) -> Conclusion:
    a, b = refs
    options = [(eq.first, src) for eq, src in ((a, b), (b, a)) if type(eq.first) is Eq]
    if not options:
        raise Rejection("WRONG_SHAPE", "EQ_E needs an equation EQ(s, t) among its citations")

    def fits(f: Formula) -> None:
        for eq, src in options:
            if replaces(src.first, eq.left, eq.right, f):
                return
        raise Rejection(
            "WRONG_CONCLUSION",
            f"{f} is not the other cited line with occurrences of s replaced by t for "
            f"{options[0][0]}",
        )

    return fits


RULES: dict[str, StandardRule] = {
    r.name: r
    for r in (
        StandardRule(
            "premise", (), _premise, "one of the proof's premises (each at most as often as listed)"
        ),
        StandardRule("assume", (), _assume, "any formula; it opens a box"),
        StandardRule("reit", (LINE,), _reit, "the formula of line a"),
        StandardRule("AND_I", (LINE, LINE), _and_i, "AND(φa, φb)"),
        StandardRule("AND_E1", (LINE,), _and_e1, "φ from AND(φ, ψ)"),
        StandardRule("AND_E2", (LINE,), _and_e2, "ψ from AND(φ, ψ)"),
        StandardRule("OR_I1", (LINE,), _or_i("left"), "OR(φa, ψ) for any ψ"),
        StandardRule("OR_I2", (LINE,), _or_i("right"), "OR(ψ, φa) for any ψ"),
        StandardRule(
            "OR_E",
            (LINE, BOX, BOX),
            _or_e,
            "χ from OR(φ, ψ), a box from φ to χ and a box from ψ to χ",
        ),
        StandardRule(
            "IMPL_I", (BOX,), _impl_i, "IMPL(φ, ψ) from a box assuming φ and ending with ψ"
        ),
        StandardRule(
            "IMPL_E", (LINE, LINE), _impl_e, "ψ from IMPL(φ, ψ) and φ, cited in either order"
        ),
        StandardRule("NOT_I", (BOX,), _not_i, "NOT(φ) from a box assuming φ and ending with BOT"),
        StandardRule("NOT_E", (LINE, LINE), _not_e, "BOT from φ and NOT(φ), cited in either order"),
        StandardRule("BOT_E", (LINE,), _bot_e, "any formula from BOT"),
        StandardRule("DNE", (LINE,), _dne, "φ from NOT(NOT(φ))"),
        StandardRule("LEM", (), _lem, "OR(φ, NOT(φ)) for any φ"),
        StandardRule(
            "FORALL_I", (LINE,), _forall_i, "FORALL(x, φ[x/c]) from φ, for a fresh constant c"
        ),
        StandardRule("FORALL_E", (LINE,), _forall_e, "φ[t/x] from FORALL(x, φ), for any term t"),
        StandardRule("EXISTS_I", (LINE,), _exists_i, "EXISTS(x, φ) from φ[t/x]"),
        StandardRule(
            "EXISTS_E",
            (LINE, BOX),
            _exists_e,
            "χ from EXISTS(x, φ) and a box assuming φ[c/x], c fresh, ending with χ free of c",
        ),
        StandardRule("EQ_I", (), _eq_i, "EQ(t, t) for any term t"),
        StandardRule(
            "EQ_E",
            (LINE, LINE),
            _eq_e,
            "line b with occurrences of s replaced by t, from EQ(s, t), cited in either order",
        ),
    )
}
