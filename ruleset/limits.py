"""Resource limits and the meter that enforces them during one run.

Limits are counted in deterministic units (steps, bits, elements, characters)
so a verdict is the same on a fast and a slow machine. The wall-clock deadline
is only a backstop against host-level surprises; it is checked at step
checkpoints, never on the hot path.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .errors import LimitExceeded
from .memory import HOLD_MIN, UNITS_PER_STEP, VISITS_PER_STEP, measure


@dataclass(frozen=True)
class Limits:
    max_steps: int = 2_000_000
    max_depth: int = 200
    max_int_bits: int = 2048
    max_length: int = 100_000  # elements of a list/tuple, characters of a string
    max_output: int = 100_000  # characters printed in one run
    max_nesting: int = 400  # container nesting depth for printing and comparison
    max_memory: int = 128 * 2**20  # live size of a program's values, in units (see memory.py)
    max_source: int = 2**20  # characters of program text
    max_tokens: int = 100_000  # tokens of program text
    fold_steps: int = 1_000_000  # steps compile-time evaluation may spend on one program
    wall_seconds: float = 10.0

    def replace(self, **changes: object) -> Limits:
        from dataclasses import replace

        return replace(self, **changes)


# Steps between two checkpoints: the hot path only decrements a counter.
CHECKPOINT_EVERY = 10_000


class Meter:
    """Mutable counters of one run, shared by generated code and operators.

    `budget` counts down to the next checkpoint; `used` holds the steps
    accounted for at earlier checkpoints.

    Memory (see memory.py) is accounted when a language gives the meter its
    `roots` (a function returning the values its program can reach); then
    operators `hold` the large values they make and the meter takes a census
    when enough was allocated. Without roots, holding costs nothing.
    """

    __slots__ = (
        "limits",
        "budget",
        "used",
        "output",
        "deadline",
        "granted",
        "charged",
        "roots",
        "held",
        "allocated",
        "gap",
        "live",
        "peak",
    )

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.roots: Callable[[], list[object]] | None = None
        self.allocated = 0  # units since the last census
        self.gap = limits.max_memory  # units allocated before the next census
        self.live = self.peak = 0  # units found by the last census, and the most found
        self.reset()

    def reset(self, deadline: float | None = None) -> None:
        """Start a new run: zero counters, and a deadline (a time.monotonic()
        value; default: the limits' wall clock from now). The memory counts
        carry over: values kept by earlier runs of a session still count."""
        limits = self.limits
        self.used = 0
        self.output = 0
        self.granted = min(CHECKPOINT_EVERY, limits.max_steps)
        self.budget = self.granted
        self.deadline = time.monotonic() + limits.wall_seconds if deadline is None else deadline
        self.charged = 0  # steps charged by operators since the last checkpoint
        # Between runs nothing waits on a host stack: what lives is reachable
        # from the roots, so the held values need not be kept.
        self.held: list[object] = []

    @property
    def steps(self) -> int:
        """Steps consumed so far (exact, not rounded to checkpoints)."""
        return self.used + self.granted - self.budget

    def checkpoint(self) -> None:
        """Called when `budget` went negative: account, check, refill."""
        spent = self.granted - self.budget
        self.used += spent
        if self.used > self.limits.max_steps:
            self.used = self.limits.max_steps + 1
            self.granted = self.budget = 0
            raise LimitExceeded(f"step limit of {self.limits.max_steps} steps")
        if time.monotonic() > self.deadline:
            self.granted = self.budget = 0
            raise LimitExceeded(f"time limit of {self.limits.wall_seconds:g} seconds")
        self.granted = min(CHECKPOINT_EVERY, self.limits.max_steps - self.used)
        self.budget = self.granted
        if self.budget <= 0:
            self.granted = self.budget = 0
        if self.roots is not None:
            # Steps of generated code (not charged by operators, which hold
            # what they make) may build values natively.
            self.allocated += max(0, spent - self.charged) * UNITS_PER_STEP
            self.charged = 0
            if self.allocated >= self.gap:
                self.census()

    def charge(self, steps: int) -> None:
        """Steps of operator work (generated code decrements `budget` itself)."""
        self.budget -= steps
        self.charged += steps
        if self.budget < 0:
            self.checkpoint()

    # -- memory -------------------------------------------------------------

    def hold(self, value: object, units: int) -> None:
        """An operator made `value`, of `units` (with what it made inside)."""
        if self.roots is None:
            return
        if units >= HOLD_MIN and value.__class__ is not int:  # (an integer refers to nothing)
            self.held.append(value)
        self.allocated += units
        if self.allocated >= self.gap:
            self.census()

    def pin(self, value: object) -> None:
        """`value` may now be reachable only from a host stack or iterator
        (a loop's sequence, an element taken out of a list, a closure):
        keep it in the census's view while it lives."""
        if self.roots is not None:
            self.held.append(value)

    def census(self) -> None:
        """Measure the live size; stop the run beyond the memory limit."""
        found = measure(self.roots(), self.held)
        self.held = found.held
        self.live = found.live
        self.peak = max(self.peak, found.live)
        self.allocated = 0
        # The next census comes when the live size could have passed the
        # limit, but not before a quarter of it more was allocated.
        self.gap = max(self.limits.max_memory - found.live, self.limits.max_memory // 4)
        self.used += found.visited // VISITS_PER_STEP
        if self.used > self.limits.max_steps:
            self.used = self.limits.max_steps + 1
            self.granted = self.budget = 0
            raise LimitExceeded(f"step limit of {self.limits.max_steps} steps")
        if found.live > self.limits.max_memory:
            self.granted = self.budget = 0
            raise LimitExceeded(f"memory of {self.limits.max_memory} units")
