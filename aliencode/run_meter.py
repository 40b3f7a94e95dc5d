"""The meter of a run of generated code: its step budget held as a float.

Generated code charges each block it enters with `_m.budget -= w` and tests
`_m.budget < 0` (compiler.py, `_tick`). On an integer budget each charge
makes a new integer object (the host preallocates only -5 to 256); on a float
the host subtracts and compares with specialized instructions and takes the
new float from a free list: about a hundred machine instructions less per
charge (callgrind), a sixteenth of a recursive call. Every value the budget
takes is an integer far below 2**53 in magnitude, so the float is exact, and
every count the meter keeps or reports is the integer the base meter's is.
"""

from __future__ import annotations

from alienworlds.ruleset import Meter


class RunMeter(Meter):
    __slots__ = ()

    def reset(self, deadline: float | None = None) -> None:
        super().reset(deadline)
        self.budget = float(self.budget)

    def checkpoint(self) -> None:
        try:
            super().checkpoint()
        finally:
            # the accounting itself (spent steps, memory allocated) in integers
            self.used = int(self.used)
            self.allocated = int(self.allocated)
            self.granted = int(self.granted)
            self.budget = float(self.budget)

    @property
    def steps(self) -> int:
        return int(self.used + self.granted - self.budget)
