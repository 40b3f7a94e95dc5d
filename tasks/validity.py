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

__all__ = ["StrategyScore", "Validity", "battery", "chance_corrected", "reported_only", "tally"]


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
