"""Labelling a candidate theorem in a world: provable, unprovable or unresolved.

* **provable**: the standard calculus' proof (the prover's, in the standard
  world) is accepted by the world, or the prover finds a proof in the world;
  either is checked by the kernel. The standard proof is the naive answer.
* **unprovable**: the prover finds no proof in the world, the certifier
  finds a certificate and the independent re-checker accepts it, and the
  bounded search (helper-lemma detours included) derives nothing.
* **unresolved**, discarded: no standard proof found, neither a proof nor a
  certificate, a bounded derivation, or rules the audit could not name (a
  naive proof whose patches are not each necessary to refuse it).

No label depends on the clock. The prover is bounded by the height of its
proof trees and by a count of search steps (its deadline read off a clock
that counts, `StepClock`); the certifier runs without a deadline over its
fixed, finite list of candidates (at most `CERTIFIER_CANDIDATES`); bounded
search has fixed bounds.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from alienworlds.ruleset.world import World, standard_world
from alienworlds.tasks.alienlogic_audit import blocking_patches, first_order, reference_patches

from alienlogic import Proof, Theorem, check, prover
from alienlogic.bounded import bounded_search
from alienlogic.certify import check_certificate, find_certificate
from alienlogic.prover import StepClock

from .theorems import Candidate

PROVER_BUDGET = 14  # the largest proof-tree height the prover tries
PROVER_TICKS = (
    8  # the prover's work allowance: readings of its clock, which it reads every 256 search steps
)
LABELS = ("provable", "unprovable")  # what a task can be; unresolved and skipped candidates are not
# algebras tried per theorem, in the certifier's fixed order (most certificates are among the first
# 20)
CERTIFIER_CANDIDATES = 30


def find_proof(world: World, theorem: Theorem) -> Proof | None:
    """The generator's one call of the prover: a checked proof, or None."""
    return prover.prove(
        world, theorem, max_budget=PROVER_BUDGET, seconds=PROVER_TICKS, clock=StepClock()
    ).proof


@dataclass
class Outcome:
    candidate: Candidate
    label: str  # provable | unprovable | unresolved | skipped
    reason: str = ""  # why unresolved
    naive: Proof | None = None  # the standard proof, when the world refuses it
    reference: Proof | None = None  # provable: accepted in the world
    certificate: dict[str, object] | None = None  # unprovable: re-checked
    rules: tuple[str, ...] = ()  # the patches the audit will name for it

    @property
    def theorem(self) -> Theorem:
        return self.candidate.theorem

    @property
    def first_order(self) -> bool:
        return first_order(self.theorem)

    @property
    def family(self) -> str:
        """The bank family the audit checks (docs/alienlogic.md, the main bank)."""
        if self.label == "unprovable":
            return "unprovable"
        if self.first_order:
            return "first-order"
        n = len(self.rules)
        return ("sanity", "single-rule", "two-rule")[n] if n < 3 else "multi-rule"


def task_rules(
    world: World, theorem: Theorem, naive: Proof | None, reference: Proof | None
) -> tuple[str, ...] | None:
    """The patches the audit computes for a task (the naive proof's blocking
    patches, each necessary, and the conclusion patches the reference relies
    on), or None when the audit would report the naive proof's patches."""
    rules: list[str] = []
    if naive is not None:
        blocking, stuck = blocking_patches(world, naive, theorem)
        if stuck:
            return None
        for rule_id in blocking:
            if check(
                naive, world.without(*(r for r in blocking if r != rule_id)), task=theorem
            ).accepted:
                return None
        rules += blocking
    if reference is not None:
        rules += [r for r in reference_patches(world, reference, theorem) if r not in rules]
    order = [r.id for r in world.rules]
    return tuple(sorted(rules, key=order.index))


class Classifier:
    """Labels candidates in one world; `timings` collects CPU seconds by stage,
    `standard` caches standard proofs (they do not depend on the world)."""

    def __init__(self, world: World, standard: dict[tuple, Proof | None], timings: Counter) -> None:
        self.world = world
        self.standard = standard
        self.timings = timings

    def _timed(self, stage: str, fn, *args, **kwargs):
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            self.timings[stage] += time.process_time() - start

    def standard_proof(self, candidate: Candidate) -> Proof | None:
        if candidate.key not in self.standard:
            self.standard[candidate.key] = self._timed(
                "prover (standard)", find_proof, standard_world("alienlogic"), candidate.theorem
            )
        return self.standard[candidate.key]

    def classify(self, candidate: Candidate, unprovable: bool = True) -> Outcome:
        """The candidate's label; with `unprovable` false, a theorem the
        prover does not prove is `skipped` without a certificate search."""
        world, th = self.world, candidate.theorem
        naive = self.standard_proof(candidate)
        if naive is None:
            return Outcome(candidate, "unresolved", "the prover finds no standard proof")
        if check(naive, world, task=th).accepted:
            rules = task_rules(world, th, None, naive)
            return Outcome(candidate, "provable", reference=naive, rules=rules or ())
        proof = self._timed("prover (world)", find_proof, world, th)
        if proof is not None:
            rules = task_rules(world, th, naive, proof)
            if rules is None:
                return Outcome(
                    candidate, "unresolved", "the naive proof's patches are not each necessary"
                )
            return Outcome(candidate, "provable", naive=naive, reference=proof, rules=rules)
        if not unprovable:
            return Outcome(candidate, "skipped", "not needed: the bank has its unprovable theorems")
        found = self._timed(
            "certifier", find_certificate, world, th, None, None, CERTIFIER_CANDIDATES
        )
        if found.data is None:
            return Outcome(candidate, "unresolved", "neither a proof nor a certificate")
        held = self._timed("re-checker", check_certificate, found.data, world, th)
        if not held.ok:  # the search keeps only what the re-checker accepts: a bug if reached
            return Outcome(
                candidate,
                "unresolved",
                "the re-checker refuses the certificate: " + "; ".join(held.problems),
            )
        bounded = self._timed("bounded search", bounded_search, world, th)
        if bounded.derivable:
            return Outcome(candidate, "unresolved", "bounded search derives it")
        rules = task_rules(world, th, naive, None)
        if rules is None:
            return Outcome(
                candidate, "unresolved", "the naive proof's patches are not each necessary"
            )
        return Outcome(candidate, "unprovable", naive=naive, certificate=found.data, rules=rules)
