"""How much slower this machine is than the one the suite's CPU budgets were
set on, so that a budget in seconds means the same work on any machine.

The budgets (a hostile program's 2 s, a worst case's 10 s, ...) were set on
a quiet 2-core machine where a loop of 10^7 additions at module level took
0.5-0.65 s of CPU. Machines of the same kind have run the suite at a third
of that speed, where sound cases overran budgets in seconds while doing the
same work. `scaled(seconds)` is a budget stretched by the measured slowness
(never shrunk: a faster machine keeps the budget as set, so a test is never
stricter than its design), which keeps what the budgets catch, work the
limits do not bound, whatever the machine: such work grows without bound,
a machine's slowness does not.
"""

from __future__ import annotations

import functools
import time

# CPU seconds of LOOP on the machine the budgets were set on: 0.65 s for the loop
# of 10^7 there, times 0.045 / 0.65, the two loops' ratio measured on one machine
# (0.065 s and 0.95 s, best of three; the longer loop adds on larger integers)
REFERENCE = 0.045
LOOP = "s = 0\nfor i in range(1_000_000):\n    s += i\n"


@functools.cache
def slowness() -> float:
    """This machine's time for LOOP over the reference time, at least 1
    (the best of five, measured once per process)."""
    code = compile(LOOP, "<machine_speed>", "exec")
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        exec(code, {})
        best = min(best, time.process_time() - start)
    return max(1.0, best / REFERENCE)


def scaled(seconds: float) -> float:
    """A CPU or wall budget of `seconds` on the reference machine, here."""
    return seconds * slowness()
