"""Option types that refuse what click's own let through: seeds that are
not text, and seconds that are not a finite, positive duration (click's
FloatRange accepts nan)."""

from __future__ import annotations

import math

import click
from alienworlds.generate.knobs import seed_problem


class SeedText(click.ParamType):
    """A generator's seed (generate/knobs.py): text of bounded length, no
    control characters, encodable as UTF-8 (argv bytes that are not UTF-8
    are refused). The message never shows the seed."""

    name = "seed"

    def convert(self, value, param, ctx) -> str:
        problem = seed_problem(str(value))
        if problem is not None:
            self.fail(problem, param, ctx)
        return str(value)


class Seconds(click.ParamType):
    """A duration in seconds: finite, above 0 and at most `most`."""

    name = "seconds"

    def __init__(self, most: float) -> None:
        self.most = most

    def convert(self, value, param, ctx) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not (math.isfinite(seconds) and 0 < seconds <= self.most):
            self.fail(
                f"{value} is not a number of seconds above 0 and at most {self.most:g}", param, ctx
            )
        return seconds
