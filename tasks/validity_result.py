"""What the trivial-strategy battery (tasks.validity) measures: each
strategy's accuracy, the floor and the flagged tasks. The language
batteries build it here; tasks.validity chooses the battery by language
(a module of its own, so that choice imports the batteries and they do
not import it back)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .bank import Bank


@dataclass(frozen=True)
class StrategyScore:
    accuracy: float  # percent of the bank's tasks passed
    passed: tuple[str, ...]  # ids of the tasks passed, in bank order

    def as_dict(self) -> dict[str, object]:
        return {"accuracy": self.accuracy, "passed": list(self.passed)}


@dataclass(frozen=True)
class Validity:
    strategies: dict[str, StrategyScore]
    floor: float
    flagged: tuple[str, ...]
    tasks: int = 0
    seconds: float = field(default=0.0, compare=False)
    reported: tuple[str, ...] = ()  # strategies measured (floor) but not flagging tasks

    def as_dict(self) -> dict[str, object]:
        return {
            "strategies": {name: s.as_dict() for name, s in self.strategies.items()},
            "floor": self.floor,
            "flagged": list(self.flagged),
            "reported_only": list(self.reported),
        }

    def summary(self) -> str:
        """One line: each strategy's accuracy, the floor and the flagged tasks."""
        parts = ", ".join(
            f"{name}{' (reported only)' if name in self.reported else ''} {s.accuracy:.1f}%"
            for name, s in self.strategies.items()
        )
        flagged = f"; flagged: {', '.join(self.flagged)}" if self.flagged else "; nothing flagged"
        return f"trivial strategies: {parts}; floor {self.floor:.1f}%{flagged}"


def tally(
    task_ids: list[str],
    passed: dict[str, set[str]],
    flag: bool,
    seconds: float = 0.0,
    reported: tuple[str, ...] = (),
) -> Validity:
    """A Validity from the tasks each strategy passed. With `flag`, every
    task some strategy passes is flagged, except by the `reported` ones
    (they count towards the floor only)."""
    n = len(task_ids)
    strategies = {
        name: StrategyScore(
            round(100.0 * len(ids) / n, 4) if n else 0.0, tuple(t for t in task_ids if t in ids)
        )
        for name, ids in passed.items()
    }
    floor = max((s.accuracy for s in strategies.values()), default=0.0)
    union = set().union(*(ids for name, ids in passed.items() if name not in reported))
    flagged = tuple(t for t in task_ids if t in union) if flag else ()
    return Validity(
        strategies, floor, flagged, n, seconds, tuple(r for r in reported if r in passed)
    )


def reported_only(bank: Bank) -> tuple[str, ...]:
    """The strategies a bank's `[audit] report_only` lists: measured, and
    counted in the floor, but not flagging tasks (a known gap, stated in
    the bank instead of hidden)."""
    names = bank.requirements.get("report_only", [])
    return tuple(names) if isinstance(names, list) else ()


def chance_corrected(score: float | None, floor: float | None) -> float | None:
    """100 × (score − floor) / (100 − floor); None when either is unknown
    or the floor is 100 (nothing is left to earn)."""
    if score is None or floor is None or floor >= 100.0:
        return None
    return round(100.0 * (score - floor) / (100.0 - floor), 4)
