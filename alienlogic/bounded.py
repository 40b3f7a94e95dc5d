"""Bounded proof search: an authoring aid, never a certificate.

Saturation (`saturation.py`) computes every formula a world's rules can put
on a line within a finite universe of formulas, a term set and a box depth,
over-approximating what a sequent cannot see (line numbers, citation counts).
A goal it misses has no proof within those bounds — evidence only: a proof
may use a formula outside the universe. The first main bank labelled a
theorem unprovable on such evidence; a proof proved a helper implication at
the top level and used it inside a box, where the world forbids introducing
it. So the universes here close under what the rules can conclude from the
theorem's subformulas, helper lemmas included:

* `subformulas`: the theorem's subformulas (quantifier bodies instantiated
  with its closed terms and two fresh constants), BOT and their negations (and
  for a first-order theorem equations between those terms), at box depth 3
  (2 for a first-order theorem);
* `detours`: those, and every implication IMPL(X, T) between a subformula X
  and a compound subformula T — the lemma a proof proves where a rule is
  allowed and cites where it is not — at box depth 2.

When saturation derives the goal, `write_proof` turns its derivation into a
Fitch proof (lines an inner box cites are written before the box opens) and
the kernel checks it in the world: a theorem labelled unprovable for which
this succeeds is mislabelled. A derivation the kernel refuses ran into a
layout condition (use-once, citation order) that saturation ignores.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from alienworlds.ruleset.world import World

from .formulas import BOT, And, Eq, Exists, Formula, Impl, Name, Not, Or, Pred, Quantified, children
from .kernel import check
from .oracle import Oracle
from .parser import parse_proof
from .proof import Proof, Theorem
from .saturation import (
    Bounds,
    Saturation,
    Unsupported,
    closure,
    default_terms,
    ground_terms,
    saturate,
)
from .verdict import Verdict


@dataclass
class BoundedResult:
    """What a bounded search found: `derivable` within some plan's bounds,
    and then the written proof and the kernel's verdict on it."""

    derivable: bool
    plan: str | None
    proof: Proof | None
    verdict: Verdict | None
    seconds: float
    tried: list[str]

    @property
    def proved(self) -> bool:
        return self.verdict is not None and self.verdict.accepted


def _first_order(formulas) -> bool:
    def fo(f: Formula) -> bool:
        return (
            isinstance(f, (Quantified, Eq))
            or (type(f) is Pred and bool(f.terms))
            or any(isinstance(c, Formula) and fo(c) for c in children(f))
        )

    return any(fo(f) for f in formulas)


def plans(theorem: Theorem) -> list[tuple[str, Bounds]]:
    """The universes a bounded search tries (see the module doc)."""
    formulas = (*theorem.premises, theorem.goal)
    first_order = _first_order(formulas)
    terms = default_terms(theorem, 2 if first_order else 0)
    sub = closure((*formulas, BOT), terms)
    negations = tuple(Not(f) for f in sub if type(f) is not Not and f is not BOT)
    extra: tuple[Formula, ...] = negations
    if first_order:
        extra += tuple(Eq(s, t) for s in terms for t in terms)
        extra += tuple(Exists("y", Eq(Name("y"), t)) for t in terms if "y" not in t.free)
    lemmas = tuple(
        Impl(x, t)
        for t in sub
        if isinstance(t, (Not, And, Or, Impl, Quantified))
        for x in sub
        if x is not t
    )
    return [
        (
            f"subformulas and their negations; depth {3 - first_order}",
            Bounds(tuple(closure((*formulas, BOT, *extra), terms)), terms, 3 - first_order),
        ),
        (
            "subformulas and helper implications between them; depth 2",
            Bounds(tuple(closure((*formulas, BOT, *lemmas), terms)), terms, 2),
        ),
    ]


def bounded_search(world: World, theorem: Theorem, seconds: float | None = None) -> BoundedResult:
    """Saturate within each plan's bounds; write out and check a derivation of
    the goal. Without `seconds` the result depends on the bounds alone."""
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    oracle = Oracle(world)
    tried: list[str] = []
    for label, bounds in plans(theorem):
        try:
            result = saturate(oracle, theorem, bounds, deadline)
        except Unsupported as exc:
            tried.append(str(exc))
            break
        except TimeoutError:
            tried.append(f"{label}: out of time")
            continue
        if not result.goal_derivable:
            tried.append(f"{label}: the goal is not derivable ({len(result.derived)} contexts)")
            continue
        proof = write_proof(result)
        verdict = check(proof, world, task=theorem)
        return BoundedResult(True, label, proof, verdict, time.perf_counter() - start, tried)
    return BoundedResult(False, None, None, None, time.perf_counter() - start, tried)


# -- writing a derivation out ------------------------------------------------------------


def write_proof(result: Saturation) -> Proof:
    """A Fitch proof of the goal from saturation's justifications."""
    writer = _Writer(result)
    goal = ((), result.theorem.goal)
    for p in dict.fromkeys(
        f for ctx, f in writer.reachable(goal) if writer.why[(ctx, f)][0] == "premise"
    ):
        writer.emit(
            (), p, "premise", ""
        )  # once, at the top: a premise may be asserted only as often as listed
    writer.fact(*goal)
    th = result.theorem
    lines = [
        f"{n}. {'| ' * depth}{formula}  [{rule}{' ' + cites if cites else ''}]"
        for n, (depth, formula, rule, cites) in enumerate(writer.lines, 1)
    ]
    text = "\n".join(
        [
            "PROOF",
            f"premises: {', '.join(map(str, th.premises))}",
            f"goal: {th.goal}",
            *lines,
            "END",
        ]
    )
    return parse_proof(text)


class _Writer:
    def __init__(self, result: Saturation) -> None:
        self.why = result.why
        self.lines: list[tuple[int, Formula, str, str]] = []
        self.scope: dict[tuple, int] = {}  # (context, formula) -> an accessible line
        self._needs: dict[tuple, set[tuple]] = {}

    def emit(self, ctx: tuple, formula: Formula, rule: str, cites: str) -> int:
        self.lines.append((len(ctx), formula, rule, cites))
        n = len(self.lines)
        self.scope[(ctx, formula)] = n
        return n

    def fact(self, ctx: tuple, f: Formula) -> int:
        """Write the line for f at ctx (the innermost open box), after what it cites."""
        if (ctx, f) in self.scope:
            return self.scope[(ctx, f)]
        rule, refs = self.why[(ctx, f)]
        if rule == "premise" and ((), f) in self.scope:
            return self.scope[((), f)]
        cites = []
        for ref in refs:
            if ref[0] == "line":
                cites.append(
                    str(self.fact(ctx, ref[2]) if ref[1] == ctx else self.scope[(ref[1], ref[2])])
                )
            else:
                first, last = self.box(ref[1], ref[2])
                cites.append(f"{first}-{last}")
        return self.emit(ctx, f, rule, ", ".join(cites))

    def box(self, child: tuple, last: Formula) -> tuple[int, int]:
        """Write a box at `child` ending with `last`; lines of the enclosing
        level that its derivation cites are written first, outside it."""
        parent = child[:-1]
        for ctx, f in sorted(self.needs((child, last)), key=lambda k: len(k[0])):
            if ctx == parent:
                self.fact(parent, f)
        first = self.emit(child, child[-1], "assume", "")
        end = self.fact(child, last)
        if end < first:  # a premise line outside: the box must end with a line of its own
            end = self.emit(child, last, "reit", str(end))
        for key in [k for k in self.scope if len(k[0]) >= len(child)]:
            del self.scope[key]  # the box closes
        return first, end

    def reachable(self, key: tuple) -> set[tuple]:
        """Every fact key's derivation uses, key included."""
        seen, stack = set(), [key]
        while stack:
            k = stack.pop()
            if k not in seen:
                seen.add(k)
                stack.extend((ref[1], ref[2]) for ref in self.why[k][1])
        return seen

    def needs(self, key: tuple) -> set[tuple]:
        """Every fact of a shallower context that key's derivation cites."""
        got = self._needs.get(key)
        if got is None:
            got = self._needs[key] = set()
            ctx = key[0]
            for ref in self.why[key][1]:
                inner = (ref[1], ref[2])
                if len(ref[1]) < len(ctx):
                    got.add(inner)  # a line of an enclosing box
                else:
                    got |= {k for k in self.needs(inner) if len(k[0]) < len(ctx)}
        return got


__all__ = ["BoundedResult", "bounded_search", "ground_terms", "plans", "write_proof"]
