"""Choosing a bank from labelled candidates: its shape, every patch covered,
and the worked examples.

The shape is hard where the knobs set it (theorems, unprovable ones,
provable first-order ones) and soft elsewhere, after the main bank: the
propositional ones spread over multi-, two- and single-rule, a share of the
unprovable ones first-order, at most two tasks from one template, and a few
(`PLAIN_SHARE`, at most) whose standard proof the world accepts (`sanity`,
and first-order ones without a naive proof). A strict selection meets the
soft targets too; a relaxed one, when the candidates run short, only the
hard ones (and takes first-order tasks without a naive proof beyond
`PLAIN_SHARE` when the world refuses too few standard first-order proofs).

Coverage comes first: while some patch is in no chosen task's rules, the
candidate that adds the most uncovered patches is taken (earliest first).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from alienworlds.ruleset.world import World
from alienworlds.tasks.alienlogic_audit import reference_patches

from alienlogic import Proof

from .classify import Outcome

PLAIN_SHARE = 0.05  # this share of tasks has no naive proof (the world accepts the standard one)
FAMILY_SHARES = (("multi-rule", 0.25), ("two-rule", 0.30), ("single-rule", 0.45))  # rarest first
FIRST_ORDER_UNPROVABLE_SHARE = 0.2  # of the unprovable tasks, at least (soft)
PER_TEMPLATE = 2  # tasks from one template, at most (soft)


@dataclass(frozen=True)
class Shape:
    theorems: int
    unprovable: int
    first_order: int  # provable first-order theorems

    @property
    def propositional(self) -> int:
        return self.theorems - self.unprovable - self.first_order

    @property
    def plain(self) -> int:
        return round(PLAIN_SHARE * self.theorems)

    def category(self, o: Outcome) -> str:
        return (
            "unprovable"
            if o.label == "unprovable"
            else "first-order"
            if o.first_order
            else "propositional"
        )

    def capacity(self) -> dict[str, int]:
        return {
            "unprovable": self.unprovable,
            "first-order": self.first_order,
            "propositional": self.propositional,
        }


def _plain(o: Outcome) -> bool:
    return o.label == "provable" and o.naive is None


class _Picker:
    def __init__(self, shape: Shape, strict: bool) -> None:
        self.shape = shape
        self.strict = strict
        self.chosen: list[Outcome] = []
        self.ids: set[int] = set()
        self.left = shape.capacity()
        self.plain_left = shape.plain
        self.templates: Counter = Counter()

    def fits(self, o: Outcome) -> bool:
        if (
            id(o) in self.ids
            or o.label not in ("provable", "unprovable")
            or self.left[self.shape.category(o)] <= 0
        ):
            return False
        if _plain(o) and self.plain_left <= 0 and (self.strict or not o.first_order):
            return False
        return not (
            self.strict
            and o.candidate.template is not None
            and self.templates[o.candidate.template] >= PER_TEMPLATE
        )

    def take(self, o: Outcome) -> None:
        self.chosen.append(o)
        self.ids.add(id(o))
        self.left[self.shape.category(o)] -= 1
        self.plain_left -= _plain(o)
        if o.candidate.template is not None:
            self.templates[o.candidate.template] += 1

    def fill(self, outcomes: list[Outcome], want, limit: int) -> None:
        for o in outcomes:
            if limit <= 0:
                return
            if want(o) and self.fits(o):
                self.take(o)
                limit -= 1


class Missing(Exception):
    """What a selection lacks."""


def select(outcomes: list[Outcome], world: World, shape: Shape, strict: bool) -> list[Outcome]:
    """The bank's tasks (see the module doc); raises Missing naming what the
    outcomes lack."""
    p = _Picker(shape, strict)
    uncovered = [r.id for r in world.rules]
    while uncovered:
        best, gain = None, 0
        for o in outcomes:
            g = sum(r in o.rules for r in uncovered)
            if g > gain and p.fits(o):
                best, gain = o, g
        if best is None:
            raise Missing(f"no task shows the patches {', '.join(uncovered)}")
        p.take(best)
        uncovered = [r for r in uncovered if r not in best.rules]

    def need(label: str, want: int, test, category: str) -> None:
        """Fill up to `want`; strict, fail when short while there was room."""
        have = sum(map(test, p.chosen))
        room = p.left[category]
        p.fill(outcomes, test, want - have)
        got = sum(map(test, p.chosen))
        if strict and got < min(want, have + room):
            raise Missing(f"{label}: {got} of {want}")

    need(
        "first-order unprovable tasks",
        round(FIRST_ORDER_UNPROVABLE_SHARE * shape.unprovable),
        lambda o: o.label == "unprovable" and o.first_order,
        "unprovable",
    )
    p.fill(outcomes, lambda o: o.label == "unprovable", shape.unprovable)
    p.fill(
        outcomes,
        lambda o: o.label == "provable" and o.first_order and not _plain(o),
        shape.first_order,
    )
    p.fill(outcomes, lambda o: o.label == "provable" and o.first_order, shape.first_order)
    non_plain = shape.propositional - min(shape.plain, shape.propositional)
    for family, share in FAMILY_SHARES:
        need(
            f"{family} tasks",
            round(share * non_plain),
            lambda o, f=family: o.family == f,
            "propositional",
        )
    p.fill(outcomes, lambda o: o.family == "sanity", shape.plain)
    p.fill(
        outcomes,
        lambda o: o.family in ("single-rule", "two-rule", "multi-rule"),
        shape.propositional,
    )
    if len(p.chosen) < shape.theorems:
        short = {k: v for k, v in p.left.items() if v > 0}
        raise Missing("too few tasks: " + ", ".join(f"{n} more {k}" for k, n in short.items()))
    return p.chosen


# -- worked examples ------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    proof: Proof
    rules_shown: tuple[str, ...]  # the standard rules its steps use, in order of first use

    @property
    def prompt(self) -> str:
        names = list(self.rules_shown)
        return "A worked proof with " + (
            ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        )


def shown(proof: Proof) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s.rule for s in proof.steps if s.rule != "premise"))


def examples(
    outcomes: list[Outcome], chosen: list[Outcome], world: World, n: int
) -> list[Example] | None:
    """`n` accepted proofs of theorems outside the bank that rely on no
    patched conclusion, chosen greedily to show the most rules of the manual:
    textbook proofs the world accepts first, then the world's own proofs."""
    taken = {id(o) for o in chosen}
    pool = [
        o
        for o in outcomes
        if o.label == "provable" and id(o) not in taken and o.reference is not None
    ]
    pool = [o for o in pool if not reference_patches(world, o.reference, o.theorem)]
    picked: list[Example] = []
    seen: set[str] = set()
    for group in ([o for o in pool if _plain(o)], [o for o in pool if not _plain(o)]):
        while group and len(picked) < n:
            best = max(
                group, key=lambda o: len(set(shown(o.reference)) - seen)
            )  # the first of the best
            group.remove(best)
            picked.append(Example(best.reference, shown(best.reference)))
            seen |= set(picked[-1].rules_shown)
    return picked if len(picked) == n else None
