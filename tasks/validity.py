"""The trivial-strategy battery: what a bank gives away to answerers that
know nothing of the world.

Each strategy is an automatic answerer that never reads the world file or the
references: it sees only what a system sees (the manual's semantics, prompts,
examples, worked examples with their outputs) plus the bank's manual-trusting
solutions. A strategy may offer several candidate answers for a task; it
passes the task when any candidate passes, so the battery errs towards a
higher floor, never a lower one.

    validity = aliencode_battery(world, bank)  # each language's: its registry entry
    validity.floor                # the best strategy's accuracy, in percent
    validity.flagged              # AlienCode: tasks some strategy passes
    validity.as_dict()            # {"strategies": {NAME: {"accuracy", "passed"}},
                                  #  "floor", "flagged"}

A score is reported beside its chance-corrected value
100 × (score − floor) / (100 − floor).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .validity_result import StrategyScore, Validity, chance_corrected, reported_only, tally

if TYPE_CHECKING:
    from alienworlds.ruleset import Limits, World

    from .bank import Bank

__all__ = [
    "StrategyScore",
    "Validity",
    "aliencode_battery",
    "chance_corrected",
    "reported_only",
    "tally",
]


def aliencode_battery(world: World, bank: Bank, limits: Limits | None = None) -> Validity:
    """AlienCode's trivial strategies on every task of `bank` (the bank's
    `[audit] report_only` strategies do not flag tasks). The registry names
    this, and AlienLogic's `alienlogic_validity.battery`, as each language's
    battery (episode/languages.py)."""
    from .aliencode_validity import battery

    return battery(world, bank, limits, reported=reported_only(bank))
