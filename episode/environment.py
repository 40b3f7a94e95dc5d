"""The per-language adapter an episode runs against.

An Environment knows one world and its task bank, and everything about the
language the driver must not: the tool (its schema, metering and feedback),
the manual and worked examples, which grader judges a reply, the
rule-report template and its scoring, and the privileged answer key the
scripted agents read (reference and manual-trusting solutions, the rules).
The driver, traces and metrics are language-neutral.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .protocol import CALLS_PER_ROUND, ROUNDS, cap_feedback

if TYPE_CHECKING:
    from alienworlds.ruleset.world import World
    from alienworlds.tasks.bank import Bank
    from alienworlds.tasks.grade import Grade
    from alienworlds.tasks.validity import Validity


@dataclass(frozen=True)
class TaskInfo:
    """What the driver and the metrics know of a held-out task."""

    id: str
    kind: str
    band: str
    family: str
    rules: tuple[str, ...]  # the rules the task exercises (for covered/uncovered accuracy)
    unprovable: bool = False

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "kind": self.kind,
            "band": self.band,
            "family": self.family,
            "rules": list(self.rules),
            "unprovable": self.unprovable,
        }


@dataclass(frozen=True)
class ToolOutcome:
    status: str  # ran | rejected (over a cap, nothing ran) | invalid (bad arguments, nothing ran)
    units: int  # probe units charged
    output: str  # the full feedback before capping
    feedback: str = field(default="")  # what the system sees (capped)

    @classmethod
    def make(cls, status: str, units: int, output: str) -> ToolOutcome:
        return cls(status, units, output, cap_feedback(output))


def text_hash(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


class Environment(ABC):
    """One language's side of an episode. Subclasses set the attributes."""

    language: str
    tool_name: str
    tool_argument: str  # the one argument of the tool (code, proof)
    calls_per_round: int = CALLS_PER_ROUND
    max_total_calls: int | None = None  # e.g. 48 proofs in all (AlienLogic)
    has_rule_report: bool = True

    world: World
    bank: Bank

    # -- identity -----------------------------------------------------------
    @property
    def world_name(self) -> str:
        return self.world.name

    @property
    def world_hash(self) -> str:
        return self.world.hash

    @abstractmethod
    def manual(self) -> str:
        """The (flawed) manual shown to the system."""

    @property
    def manual_hash(self) -> str:
        return text_hash(self.manual())

    def validity(self) -> Validity | None:
        """The bank's trivial-strategy battery (tasks.validity), if known."""
        return None

    @property
    def floor(self) -> float | None:
        """The best trivial strategy's accuracy on the bank, in percent."""
        found = self.validity()
        return found.floor if found is not None else None

    def bank_hash(self) -> str:
        path = Path(self.bank.source)
        return (
            text_hash(path.read_text(encoding="utf-8"))
            if path.exists()
            else text_hash(repr(self.bank))
        )

    # -- what the system sees ------------------------------------------------
    @abstractmethod
    def system_prompt(self, open_book: bool = False) -> str:
        """Protocol, manual and worked examples (and the rules when open-book)."""

    @abstractmethod
    def tool_spec(self) -> dict[str, object]:
        """The tool's OpenAI-style function schema."""

    def round_prompt(self, round_no: int, rounds: int = ROUNDS) -> str:
        cap = f"up to {self.calls_per_round} calls of {self.tool_name}"
        return (
            f"Exploration round {round_no} of {rounds}. You may make {cap} in this round. "
            "Use them to find out how this world really behaves where it differs from the manual. "
            "When you have no further probe for this round, reply without a tool call; the round "
            "then ends."
        )

    def reflect_prompt(self, round_no: int, rounds: int = ROUNDS) -> str:
        return (
            f"Round {round_no} of {rounds}. No tool is available in this round. Revise your "
            "hypotheses about "
            "where this world differs from its manual, using only what you have seen so far, and "
            "state them."
        )

    def injected_note(self) -> str:
        return "Note your current hypotheses about the world's rules in light of this result."

    @abstractmethod
    def run_tool(self, arguments: object) -> ToolOutcome:
        """Run one tool call (decoded JSON arguments, possibly malformed)."""

    @abstractmethod
    def tasks(self) -> list[TaskInfo]: ...

    @abstractmethod
    def task_prompt(self, task_id: str) -> str:
        """The tool-disabled question for one held-out task."""

    @abstractmethod
    def grade(self, task_id: str, text: str) -> Grade:
        """The bank grader's verdict on a reply (the model's raw text); a
        reply without a readable answer fails."""

    # -- rule reports -------------------------------------------------------
    def rule_ids(self) -> list[str]:
        return []

    def rule_report_prompt(self) -> str:
        raise NotImplementedError

    def parse_rule_report(self, text: str) -> dict[str, str]:
        raise NotImplementedError

    def score_rule_report(self, report: dict[str, str]) -> dict[str, bool]:
        raise NotImplementedError

    def disclosure(self) -> str:
        """The complete rule set, as disclosed in the open-book conditions."""
        raise NotImplementedError

    # -- probes chosen by the protocol, not the system -------------------------
    @abstractmethod
    def fixed_probes(self, seed: int, rounds: int, per_round: int) -> list[list[str]]:
        """The fixed-probe sequence: per round, the tool arguments in order."""

    # -- the answer key (scripted agents only) ------------------------------------
    @abstractmethod
    def reference_reply(self, task_id: str) -> str: ...

    @abstractmethod
    def naive_reply(self, task_id: str) -> str: ...

    def true_rule_report(self) -> dict[str, str]:
        return {}

    def manual_rule_report(self) -> dict[str, str]:
        """What a manual-trusting system reports: every rule unchanged."""
        return {rid: "IDENTITY" for rid in self.rule_ids()}

    def rules_touched(self, argument: str) -> set[str]:
        """The rules a probe could expose (used by the fixed-probe learner)."""
        return set()

    def format_rule_report(self, report: dict[str, str]) -> str:
        return "\n".join(f"{rid}: {report.get(rid, 'UNKNOWN')}" for rid in self.rule_ids())
