"""The trivial-strategy battery: what a bank gives away to answerers that
know nothing of the world.

Each strategy is an automatic answerer that never reads the world file or the
references: it sees only what a system sees (the manual's semantics, prompts,
examples, worked examples with their outputs) plus the bank's manual-trusting
solutions. A strategy may offer several candidate answers for a task; it
passes the task when any candidate passes, so the battery errs towards a
higher floor, never a lower one.

    validity = battery(world, bank)
    validity.floor                # the best strategy's accuracy, in percent
    validity.flagged              # AlienCode: tasks some strategy passes
    validity.as_dict()            # {"strategies": {NAME: {"accuracy", "passed"}}, "floor", "flagged"}

A score is reported beside its chance-corrected value
100 × (score − floor) / (100 − floor).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alienworlds.ruleset import Limits, World

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


def battery(world: World, bank: Bank, limits: Limits | None = None) -> Validity:
    """Run the language's trivial strategies on every task of `bank` (an
    AlienCode bank's `[audit] report_only` strategies do not flag tasks)."""
    if bank.language == "aliencode":
        from .aliencode_validity import battery as run

        return run(world, bank, limits, reported=reported_only(bank))
    if bank.language == "alienlogic":
        from .alienlogic_validity import battery as run_logic

        return run_logic(world, bank)
    raise ValueError(f"no trivial strategies for language {bank.language!r}")
