"""The AlienLogic prover: a proof the world's checker accepts, or why not.

Two stages, each ending in a proof tree that `writeout.Emitter` writes as
Fitch lines through the kernel's incremental checker; the finished proof is
checked once more, whole, before it is returned.

1. `search.Search`: backward search over sequents in the world's patched
   rules (iterative deepening on the tree's height, first without and then
   with boxes lifted around the goal). It finds short, direct proofs and
   the detours a patched world forces. Its effort is capped by a step
   count, so hard theorems move on to stage 2 quickly.
2. `refutation.refute_search`, when the world keeps the classical rules the
   refutation writes (none of them given another conclusion, and each one
   allowed or derivable by a detour through allowed rules): a complete
   method for classical propositional logic and, by iterative deepening
   over Herbrand levels, for first-order logic without equality. Steps the
   world refuses are rewritten into their detours (`detours.route_around`:
   excluded middle and a case analysis in place of a disabled or guarded
   DNE or NOT_I) before the proof is written out.

In the standard world the prover may also answer that a theorem is not a
classical consequence, and then only with a countermodel that
`countermodel.verified` has checked by evaluating the premises and the goal
in it: a propositional one from the solver, or, when the refutation finds
no proof, a small one found by grounding (`countermodel.search`). Without a
checked countermodel it says it could not decide: a search that looks
complete is evidence, never a verdict.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from alienworlds.ruleset.world import World

from . import countermodel
from .countermodel import Countermodel
from .detours import routable, route_around
from .formulas import Not, Pred
from .kernel import check
from .oracle import Oracle
from .proof import Proof, Theorem
from .refutation import OutOfTime as RefutationOutOfTime
from .refutation import refute_search, to_tree
from .sat import atoms, solve
from .search import OutOfTime, Search
from .writeout import EmitFailed, Emitter, Node

# Stage 1's effort per theorem, in search steps (a deterministic measure):
# a short look for a direct proof before the refutation, and the full search
# where the refutation does not apply or finds nothing.
QUICK_STEPS = 300
SEARCH_STEPS = 20000

# The rules the refutation writes; stage 2 runs only where none of them is
# disabled or derives something else than the standard rule.
CLASSICAL_RULES = (
    "premise",
    "assume",
    "reit",
    "AND_I",
    "AND_E1",
    "AND_E2",
    "OR_I1",
    "OR_I2",
    "OR_E",
    "IMPL_I",
    "IMPL_E",
    "NOT_I",
    "NOT_E",
    "BOT_E",
    "DNE",
    "FORALL_I",
    "FORALL_E",
    "EXISTS_I",
    "EXISTS_E",
)

STOP_READING = 0.005  # wall seconds between two readings of the CPU clock by the stop check


# What `ProverResult.failure` may say: the time limit ran out; the direct
# search tried every tree height up to the budget; it spent its step
# allowance first; the world's checker refused every proof written; a
# checked countermodel shows the theorem is not a classical consequence;
# the refutation found no proof and no countermodel was found.
FAILURES = ("out of time", "budget", "steps", "refused", "refuted", "undecided")


class StepClock:
    """A clock that advances one tick per reading. The prover reads its clock
    every so many search steps (every 256 in the backward search, every 32 in
    the refutation), so `prove(..., seconds=N, clock=StepClock())` stops after
    a count of search steps: the same search stops at the same point on any
    machine, which is what a label or a strategy's answer must not depend on."""

    def __init__(self) -> None:
        self.ticks = 0

    def __call__(self) -> float:
        self.ticks += 1
        return float(self.ticks)


@dataclass
class ProverResult:
    proof: Proof | None
    seconds: float
    searched: int
    reason: str = ""
    trees: int = 0
    stage: str = ""  # "search" or "refutation": which stage found the proof
    countermodel: Countermodel | None = None  # checked: the theorem is not a classical consequence
    # Why no proof, when none (see FAILURES), and what each stage reported.
    failure: str = ""
    details: list[str] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return self.proof is not None

    @property
    def refuted(self) -> bool:
        return self.countermodel is not None


class _Attempt:
    """Bookkeeping shared by the stages of one `prove` call."""

    def __init__(
        self,
        world: World,
        theorem: Theorem,
        seconds: float,
        clock: Callable[[], float],
        pace: Callable[[], float] = time.monotonic,
    ) -> None:
        self.world = world
        self.theorem = theorem
        self.clock = clock
        self.start = clock()
        self.deadline = self.start + seconds
        self.searched = 0
        self.trees = 0
        self.reasons: list[str] = []
        self.details: list[str] = []
        self.steps_spent = False  # a search stage ended on its step allowance
        self.pace = pace  # a wall clock: paces the readings of `clock`
        self._next_reading = pace()
        # The time limit covers writing and checking a proof too. A counting
        # clock counts search steps only: what the search built bounds the
        # write-out, and reading that clock here would change the count.
        self.stop = None if isinstance(clock, StepClock) else self._stop

    def _stop(self) -> None:
        """Raise OutOfTime past the deadline. Callers ask at their own pace,
        microseconds apart (checking a proof's lines) or tens of milliseconds
        (a solver asks every 256 decisions, each a propagation over the whole
        formula): a fixed number of calls between readings of the CPU clock
        let a solver run 0.4 s past a 1 s limit. So the CPU clock (0.5 us a
        reading) is read once STOP_READING seconds have passed on the wall
        clock (0.1 us), which runs at least as fast for a process computing
        in one thread."""
        now = self.pace()
        if now < self._next_reading:
            return
        self._next_reading = now + STOP_READING
        if self.clock() > self.deadline:
            raise OutOfTime()

    def result(
        self, proof: Proof | None, reason: str = "", stage: str = "", failure: str = ""
    ) -> ProverResult:
        return ProverResult(
            proof,
            self.clock() - self.start,
            self.searched,
            reason,
            self.trees,
            stage,
            failure=failure,
            details=[*self.details, *self.reasons],
        )

    def refuted(self, model: Countermodel) -> ProverResult:
        result = self.result(
            None,
            f"not a classical consequence (countermodel: {model.describe()})",
            failure="refuted",
        )
        result.countermodel = model
        return result

    def failed(self, max_budget: int) -> ProverResult:
        """The result when no stage found a proof: the last reason recorded,
        classified (see FAILURES)."""
        if self.reasons:
            reason = self.reasons[-1]
            failure = "undecided" if reason.startswith("could not decide") else "refused"
        else:
            reason = f"no proof within budget {max_budget}"
            failure = "steps" if self.steps_spent else "budget"
        return self.result(None, reason, failure=failure)

    def write(self, node: Node) -> Proof | None:
        """The tree written out and checked whole, or None (the reason kept)."""
        self.trees += 1
        try:
            proof = Emitter(self.world, self.theorem, self.stop).run(node)
        except EmitFailed as exc:
            self.reasons.append(str(exc))
            return None
        except RecursionError:
            # the writer recurses along chains of lines; a tree too deep for
            # it is a failure of this attempt, never a crash
            self.reasons.append("the proof is nested too deeply to write out")
            return None
        verdict = check(proof, self.world, task=self.theorem, stop=self.stop)
        if verdict.accepted:
            return proof
        self.reasons.append(f"the written proof is refused: {verdict.reason_id}")
        return None


def prove(
    world: World,
    theorem: Theorem,
    max_budget: int = 14,
    seconds: float = 20.0,
    clock: Callable[[], float] = time.process_time,
    route_guarded: bool = False,
) -> ProverResult:
    """A proof of `theorem` the world's checker accepts, or None (with why).
    The search stops once `clock` (CPU seconds by default) has advanced by
    `seconds`; a clock that counts its own readings makes the stop a count
    of search steps, the same on any machine. Steps of a disabled rule are
    routed around it where the world allows a detour (`detours.py`); with
    `route_guarded`, so are steps a side condition refuses."""
    run = _Attempt(world, theorem, seconds, clock)
    oracle = Oracle(world)
    standard = not world.rules
    try:
        if standard and _propositional(theorem):
            outcome = solve((*theorem.premises, Not(theorem.goal)), run.stop)
            if outcome.satisfiable:
                model = countermodel.propositional(theorem.premises, theorem.goal, outcome.model)
                if model is not None:
                    return run.refuted(model)
                run.reasons.append("could not decide (the solver's countermodel does not check)")
        if _classical(oracle):
            proof = _search_stage(run, oracle, max_budget, QUICK_STEPS, route_guarded)
            if proof is not None:
                return run.result(proof, stage="search")
            found = refute_search(
                theorem.premises, theorem.goal, run.deadline, clock=run.clock, solver_stop=run.stop
            )
            run.searched += found.steps
            run.details.append(
                f"refutation: {found.steps} steps, Herbrand level {found.level}, "
                + ("a derivation" if found.derivation is not None else "no derivation")
            )
            if found.derivation is not None:
                tree = to_tree(found.derivation)
                if not standard:
                    tree = route_around(tree, oracle, theorem.premises, route_guarded)
                proof = run.write(tree)
                if proof is not None:
                    return run.result(proof, stage="refutation")
            elif standard:
                model = countermodel.search(theorem.premises, theorem.goal, stop=run.stop)
                if model is not None:
                    return run.refuted(model)
                if found.complete:
                    run.reasons.append(
                        "could not decide (the refutation leaves a branch open, and no "
                        "countermodel "
                        f"of at most {countermodel.MAX_DOMAIN} elements was found)"
                    )
        proof = _search_stage(run, oracle, max_budget, SEARCH_STEPS, route_guarded)
    except (OutOfTime, RefutationOutOfTime):
        return run.result(None, "out of time", failure="out of time")
    if proof is not None:
        return run.result(proof, stage="search")
    return run.failed(max_budget)


def _search_stage(
    run: _Attempt, oracle: Oracle, max_budget: int, max_steps: int, route_guarded: bool
) -> Proof | None:
    """Backward search, without then with lifting; raises OutOfTime only
    when the deadline has passed (a spent step allowance ends the stage)."""
    for lift in (False, True):
        search = Search(
            oracle,
            run.theorem,
            run.deadline,
            lift=lift,
            max_steps=max_steps,
            clock=run.clock,
            route_guarded=route_guarded,
        )
        budget = 0
        try:
            for budget in range(1, max_budget + 1):
                node = search.prove((), run.theorem.goal, budget, False)
                if node is None:
                    continue
                proof = run.write(node)
                if proof is not None:
                    return proof
                # forget this tree's sequents and look deeper
                search.proved.clear()
        except OutOfTime:
            if run.clock() > run.deadline:
                raise
            # the quick look before the refutation is meant to stop early
            run.steps_spent |= max_steps == SEARCH_STEPS
            run.details.append(
                f"direct search{' with lifting' if lift else ''}: step allowance of "
                f"{max_steps} spent at tree height {budget}"
            )
        else:
            run.details.append(
                f"direct search{' with lifting' if lift else ''}: no proof up to tree height "
                f"{max_budget} ({search.steps} steps)"
            )
        finally:
            run.searched += search.steps
    return None


def _classical(oracle: Oracle) -> bool:
    """Whether the refutation's proofs can be written in the world: each of
    its rules keeps its standard conclusion and is allowed, or has a detour
    through allowed rules (`detours.py`; a guarded step is routed the same
    way when its condition refuses it)."""
    return all(r not in oracle.conclusions and routable(oracle, r) for r in CLASSICAL_RULES)


def _propositional(theorem: Theorem) -> bool:
    return all(type(a) is Pred and not a.terms for a in atoms((*theorem.premises, theorem.goal)))
