"""Resource limits and the meter that enforces them during one run.

Limits are counted in deterministic units (steps, bits, elements, characters)
so a verdict is the same on a fast and a slow machine. The wall-clock deadline
is only a backstop against host-level surprises; it is checked at step
checkpoints, never on the hot path.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .errors import LimitExceeded


@dataclass(frozen=True)
class Limits:
    max_steps: int = 2_000_000
    max_depth: int = 200
    max_int_bits: int = 2048
    max_length: int = 100_000  # elements of a list/tuple, characters of a string
    max_output: int = 100_000  # characters printed in one run
    max_nesting: int = 400  # container nesting depth for printing and comparison
    max_source: int = 2**20  # characters of program text
    max_tokens: int = 100_000  # tokens of program text
    fold_steps: int = 1_000_000  # steps compile-time evaluation may spend on one program
    wall_seconds: float = 10.0

    def replace(self, **changes: object) -> "Limits":
        from dataclasses import replace

        return replace(self, **changes)


# Steps between two checkpoints: the hot path only decrements a counter.
CHECKPOINT_EVERY = 10_000


class Meter:
    """Mutable counters of one run, shared by generated code and operators.

    `budget` counts down to the next checkpoint; `used` holds the steps
    accounted for at earlier checkpoints.
    """

    __slots__ = ("limits", "budget", "used", "output", "deadline", "granted")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.reset()

    def reset(self, deadline: float | None = None) -> None:
        """Start a new run: zero counters, and a deadline (a time.monotonic()
        value; default: the limits' wall clock from now)."""
        limits = self.limits
        self.used = 0
        self.output = 0
        self.granted = min(CHECKPOINT_EVERY, limits.max_steps)
        self.budget = self.granted
        self.deadline = time.monotonic() + limits.wall_seconds if deadline is None else deadline

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

    def charge(self, steps: int) -> None:
        self.budget -= steps
        if self.budget < 0:
            self.checkpoint()
