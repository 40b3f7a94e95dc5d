"""What a verdict says about each step of the proof it judged.

The checker stops at the first failing step, and a step's fate depends only
on the patches of its own inference rule (and on the proof, which is the
same in every world). So a verdict is a conjunction of facts about single
steps: every step before the rejected one passed the patches of its rule,
and the rejected step failed in the way the verdict names. Steps after it
say nothing. An accepted proof (or one whose steps all checked) passed at
every step.

Outcomes of a step:

* `pass`: the step passed (a step the standard rules refuse only for its
  conclusion passes only under a `conclusion` patch);
* `disabled`, id: refused by a world rule disabling its rule;
* `side`, id: refused by a world rule's side condition or patched conclusion;
* `standard`, id: refused by the standard conclusion (no `conclusion` patch);
* `applies`, id: refused by the standard rule's applicability or citations,
  which only says the rule is not disabled.

A failure before any world rule applies (numbering, unknown rule, boxes) is
the same in every world and says nothing. A verdict the standard calculus
cannot explain (a different failure than the walk finds) is set aside as
unexplained, never trusted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from alienlogic import Proof, ProofSyntaxError, parse_proof
from alienlogic.kernel import APPLY, CONCLUDE, PLACE, StepFacts, walk
from alienlogic.verdict import ALIEN_AXIOM_DISABLED, ALIEN_SIDE_CONDITION

PASS, DISABLED, SIDE, STANDARD, APPLIES = "pass", "disabled", "side", "standard", "applies"
WORLD_CLASSES = (ALIEN_AXIOM_DISABLED, ALIEN_SIDE_CONDITION)


@dataclass(frozen=True)
class StepRecord:
    """One step's observed fate."""

    facts: StepFacts
    outcome: str  # PASS DISABLED SIDE STANDARD APPLIES
    reason_id: str | None = None

    @property
    def rule(self) -> str:
        return self.facts.rule


@dataclass(frozen=True)
class Observation:
    """A proof and its verdict, read as facts about steps."""

    proof: Proof | None  # None: the text is no proof
    verdict: dict
    records: tuple[StepRecord, ...]
    explained: bool = True  # False: the standard calculus cannot explain this verdict

    @property
    def rules(self) -> frozenset[str]:
        """The inference rules whose patches the verdict tested."""
        return frozenset(r.rule for r in self.records)


def parse_verdict(text: str) -> dict | None:
    """The verdict JSON a tool result shows, or None when it is not one."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("accepted"), bool):
        return None
    return data


def read_proof(text: str) -> Proof | None:
    try:
        return parse_proof(text)
    except (ProofSyntaxError, RecursionError):
        return None


def observe(proof: Proof | str | None, verdict: dict) -> Observation:
    """The facts a verdict states about the steps of a proof."""
    if isinstance(proof, str):
        proof = read_proof(proof)
    if proof is None or verdict.get("reason_class") == "PARSE_ERROR":
        return Observation(proof, verdict, ())
    facts = walk(proof)
    if verdict.get("accepted") or verdict.get("verifier_passed"):
        if facts and facts[-1].stage in (PLACE, APPLY):
            return Observation(proof, verdict, (), explained=False)
        return Observation(proof, verdict, tuple(StepRecord(f, PASS) for f in facts))
    k = verdict.get("rejected_step")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= len(facts):
        # e.g. GOAL_NOT_REACHED without verifier_passed cannot happen; a step
        # the walk never reached means the verdict is not this proof's
        return Observation(
            proof, verdict, (), explained=verdict.get("rejected_step") is None and not facts
        )
    passed = [StepRecord(f, PASS) for f in facts[: k - 1]]
    if any(f.stage in (PLACE, APPLY) for f in facts[: k - 1]):
        return Observation(proof, verdict, (), explained=False)
    step = facts[k - 1]
    cls, rid = verdict.get("reason_class"), verdict.get("reason_id")
    rid = rid if isinstance(rid, str) else None
    if cls == ALIEN_AXIOM_DISABLED and step.stage != PLACE:
        last = StepRecord(step, DISABLED, rid)
    elif cls == ALIEN_SIDE_CONDITION and step.stage in (None, CONCLUDE):
        last = StepRecord(step, SIDE, rid)
    elif cls not in WORLD_CLASSES and step.failure is not None and step.failure.reason_id == rid:
        if step.stage == PLACE:
            return Observation(proof, verdict, tuple(passed))
        last = StepRecord(step, APPLIES if step.stage == APPLY else STANDARD, rid)
    else:
        return Observation(proof, verdict, (), explained=False)
    return Observation(proof, verdict, (*passed, last))
