"""How many examples each hypothesis property draws.

Every property states the examples it draws in a full run, `examples(n)`.
The default run, the one CI runs and README gives, draws a quarter of them
(at least ten, or n when n is smaller): with about a hundred properties at
full size the suite took more than its ten minutes on a two-core machine,
and drawing is most of what a property costs. A property whose examples do
not vary from run to run (`derandomize=True`) draws the same first quarter
each time; the others draw fresh examples on every run, so the default runs
add up to more than any one of them.

ALIENWORLDS_FUZZ chooses the size:

* unset: the quarter;
* `full`: every property at the size it states;
* a whole number k: k times the stated size (a bug hunt of its own).

Properties that test something only enough examples reach (that a generator
covers every kind of statement, say) state their size without this
function, and draw it in every run.

Tests that replay a fixed corpus (the worst-case generator's programs fed
to a second parser, or to the server as probes) run all of it when
ALIENWORLDS_FUZZ is set, and one part in four by default, `share(cases)`:
every fourth case from an offset drawn for the run, so that runs differ as
a property's examples do. The pytest header gives the offset, and
ALIENWORLDS_FUZZ_OFFSET=k runs that part again.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
QUARTER_FLOOR = 10
PARTS = 4
OFFSET = "ALIENWORLDS_FUZZ_OFFSET"


class FuzzSettingError(ValueError):
    """ALIENWORLDS_FUZZ names no size."""


def scale(value: str | None) -> int | None:
    """The multiple of the stated sizes ALIENWORLDS_FUZZ asks for; None for
    the default quarter."""
    if value is None or value.strip() == "":
        return None
    if value.strip() == "full":
        return 1
    if value.strip().isdigit() and int(value) >= 1:
        return int(value)
    raise FuzzSettingError(
        f"ALIENWORLDS_FUZZ={value!r}: give `full` or a whole number of at least 1,"
        " or leave it unset"
    )


SCALE = scale(os.environ.get("ALIENWORLDS_FUZZ"))


def examples(n: int, multiple: int | None = SCALE) -> int:
    """The examples a property that states `n` draws in this run."""
    if multiple is None:
        return n if n <= QUARTER_FLOOR else max(QUARTER_FLOOR, n // 4)
    return n * multiple


def offset(environ=os.environ) -> int:
    """The part of each corpus this run replays: ALIENWORLDS_FUZZ_OFFSET,
    else one drawn now and kept in the environment, where the test
    processes pytest starts find it."""
    value = environ.get(OFFSET, "").strip()
    if value == "":
        environ[OFFSET] = value = str(random.randrange(PARTS))
    if not (value.isdigit() and int(value) < PARTS):
        raise FuzzSettingError(f"{OFFSET}={value!r}: give a whole number from 0 to {PARTS - 1}")
    return int(value)


def share(cases: Sequence[T], multiple: int | None = SCALE, part: int | None = None) -> list[T]:
    """The cases of a corpus this run replays (see the module docstring)."""
    if multiple is not None:
        return list(cases)
    return list(cases[offset() if part is None else part :: PARTS])
