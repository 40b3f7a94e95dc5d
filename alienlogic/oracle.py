"""Rule application at the level of sequents, for searches over proofs.

A search that reasons about "formula φ follows at box depth d under these
open assumptions" (the certifier's saturation, the prover's backward search)
needs to know what a world's rule derives from given formulas. `Oracle`
answers with the checker's own code: the standard rule of `rules.py`, a
world's `conclusion` patch in its place, and the world's `require` side
conditions, evaluated on a step made of the formulas and the depth alone.

What a sequent cannot know is the layout of the proof: line numbers, how
often a line was cited, whether a cited line is a premise line. A side
condition that reads them (`patches.Patch.layout`) is taken as satisfiable
here: that over-approximates what the world allows, which is what a
certificate of unprovability needs, and the prover settles layout when it
writes the proof out and checks it with the kernel.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from alienworlds.ruleset.limits import Limits
from alienworlds.ruleset.world import World

from .formulas import Formula
from .patches import CompiledWorld, Patch
from .predicates import StepView
from .rules import RULES, Ref
from .verdict import Rejection

# A search evaluates many side conditions with one binding; its meter must not
# run out (each expression is small and bounded on its own).
_SEARCH_LIMITS = Limits(max_steps=10**15, wall_seconds=10.0**9)


@dataclass(frozen=True)
class Context:
    """What a rule may ask about a sequent (rules.ProofContext): the premises
    (every listed premise may be asserted) and the open assumptions."""

    premises: frozenset[Formula]
    premise_free: frozenset[str]
    assumptions: tuple[Formula, ...]

    @staticmethod
    def of(premises: Iterable[Formula], assumptions: tuple[Formula, ...] = ()) -> Context:
        premises = frozenset(premises)
        free = frozenset().union(*(p.free for p in premises)) if premises else frozenset()
        return Context(premises, free, assumptions)

    def premise_uses(self, formula: Formula) -> tuple[int, int]:
        return (1, 1) if formula in self.premises else (0, 0)

    def occurs(self, name: str) -> str | None:
        if name in self.premise_free:
            return "a premise"
        for a in self.assumptions:
            if name in a.free:
                return "an open assumption"
        return None


def line(formula: Formula) -> Ref:
    """A cited line holding `formula` (its number is irrelevant here)."""
    return Ref(0, 0, formula, formula)


def box(assumption: Formula, last: Formula) -> Ref:
    """A cited box from `assumption` to `last`."""
    return Ref(0, 1, assumption, last, True)


class Oracle:
    """A world's rules applied to formulas at a box depth (see module doc)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.compiled = CompiledWorld(world, _SEARCH_LIMITS)
        self.binding = self.compiled.bind()
        self.disabled = frozenset(self.compiled.disabled)
        self.conclusions: dict[str, Patch] = dict(self.compiled.conclusions)
        self.requires: dict[str, tuple[Patch, ...]] = {
            k: tuple(v) for k, v in self.compiled.requires.items()
        }
        # Answers depend on the rule, the cited formulas, the line's formula and
        # the depth; the context matters only where a rule consults it.
        self._memo: dict[tuple, object] = {}
        # A patched conclusion that reads the layout has no single value on a
        # sequent; searches that must over-approximate refuse such worlds.
        self.layout_conclusions = tuple(sorted(r for r, p in self.conclusions.items() if p.layout))

    def allowed(self, rule: str) -> bool:
        return rule not in self.disabled

    def determined(self, rule: str) -> bool:
        """Whether `derive` can compute the rule's conclusion from its citations
        (false for rules that derive "any formula of a form", such as OR_I1)."""
        patch = self.conclusions.get(rule)
        if patch is not None:
            return not patch.reads_conclusion
        return rule in _DETERMINED

    def derive(self, rule: str, refs: tuple[Ref, ...], depth: int, ctx: Context) -> Formula | None:
        """The formula `rule` derives from `refs` at `depth`, when it is determined
        by them (see `determined`) and the step passes every side condition
        that does not read the layout; otherwise None."""
        if rule in self.disabled:
            return None
        key = ("d", rule, _key(refs), depth, ctx if rule in _CONTEXT_RULES else None)
        memo = self._memo
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        memo[key] = got = self._derive(rule, refs, depth, ctx)
        return got

    def _derive(self, rule: str, refs: tuple[Ref, ...], depth: int, ctx: Context) -> Formula | None:
        try:
            derived = RULES[rule].check(refs, ctx)
            patch = self.conclusions.get(rule)
            if patch is not None:
                value = self.binding.evaluate(patch, StepView(depth, 0, None, refs, [], []))
                if not isinstance(value, Formula):
                    return None
                derived = value
            elif not isinstance(derived, Formula):
                return None
            if not self._requires(rule, StepView(depth, 0, derived, refs, [], [])):
                return None
            return derived
        except Rejection:
            return None

    def applies(
        self, rule: str, refs: tuple[Ref, ...], conclusion: Formula, depth: int, ctx: Context
    ) -> bool:
        """Whether a step deriving `conclusion` by `rule` from `refs` at `depth`
        passes, layout conditions aside."""
        if rule in self.disabled:
            return False
        key = ("a", rule, _key(refs), conclusion, depth, ctx if rule in _CONTEXT_RULES else None)
        memo = self._memo
        got = memo.get(key)
        if got is None:
            got = memo[key] = self._applies(rule, refs, conclusion, depth, ctx)
        return got  # type: ignore[return-value]

    def _applies(
        self, rule: str, refs: tuple[Ref, ...], conclusion: Formula, depth: int, ctx: Context
    ) -> bool:
        try:
            derived = RULES[rule].check(refs, ctx)
            view = StepView(depth, 0, conclusion, refs, [], [])
            patch = self.conclusions.get(rule)
            if patch is not None:
                if self.binding.evaluate(patch, view) is not conclusion:
                    return False
            elif isinstance(derived, Formula):
                if derived is not conclusion:
                    return False
            else:
                derived(conclusion)
            return self._requires(rule, view)
        except Rejection:
            return False

    def _requires(self, rule: str, view: StepView) -> bool:
        for patch in self.requires.get(rule, ()):
            if patch.layout:
                continue
            if not self.binding.evaluate(patch, view):
                return False
        return True


def _key(refs: tuple[Ref, ...]) -> tuple:
    return tuple((r.first, r.last, r.is_box) for r in refs)


# Rules that consult the context (premises, freshness of a constant).
_CONTEXT_RULES = frozenset({"premise", "FORALL_I", "EXISTS_E"})

# Rules whose standard conclusion is a formula computed from the citations.
_DETERMINED = frozenset(
    {
        "reit",
        "AND_I",
        "AND_E1",
        "AND_E2",
        "OR_E",
        "IMPL_I",
        "IMPL_E",
        "NOT_I",
        "NOT_E",
        "DNE",
        "EXISTS_E",
    }
)
