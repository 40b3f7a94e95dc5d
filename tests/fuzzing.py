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
"""

from __future__ import annotations

import os

QUARTER_FLOOR = 10


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
