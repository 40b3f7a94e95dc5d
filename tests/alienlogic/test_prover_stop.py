"""The prover's stop check under a real clock: a caller that asks seldom
(a solver every 256 decisions, each slow on a large formula) is stopped at
its first call past the deadline, whatever came before, and one that asks
every microsecond reads the CPU clock only every STOP_READING seconds."""

from __future__ import annotations

import pytest
from alienworlds.ruleset import standard_world

from alienlogic import parse_formula
from alienlogic.proof import Theorem
from alienlogic.prover import STOP_READING, OutOfTime, _Attempt

WORLD = standard_world("alienlogic")
THEOREM = Theorem((), parse_formula("IMPLIES(p, p)"))


class Clocks:
    """A CPU clock and a wall clock that both advance by the work done
    between two calls of the stop check; counts the CPU clock's readings."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def cpu(self) -> float:
        self.readings += 1
        return self.now

    def wall(self) -> float:
        return self.now


def attempt(seconds: float) -> tuple[_Attempt, Clocks]:
    clocks = Clocks()
    run = _Attempt(WORLD, THEOREM, seconds, clocks.cpu, clocks.wall)
    return run, clocks


def stopped_after(run: _Attempt, clocks: Clocks, step: float, calls: int) -> float | None:
    """Call the stop check `calls` times, `step` seconds of work apart; when
    it raised OutOfTime, the time then."""
    for _ in range(calls):
        clocks.now += step
        try:
            run.stop()
        except OutOfTime:
            return clocks.now
    return None


@pytest.mark.parametrize("step", [0.006, 0.02, 0.05, 0.3])
def test_a_slow_caller_is_stopped_at_its_first_call_past_the_deadline(step):
    run, clocks = attempt(1.0)
    at = stopped_after(run, clocks, step, 10_000)
    assert at is not None and 1.0 < at <= 1.0 + step + 1e-9


def test_a_caller_that_slows_down_is_stopped_at_its_first_slow_call_past_the_deadline():
    run, clocks = attempt(1.0)
    assert stopped_after(run, clocks, 1e-6, 500_000) is None  # half a second of fast calls
    at = stopped_after(run, clocks, 0.02, 10_000)
    assert at is not None and 1.0 < at <= 1.0 + 0.02 + 1e-9


def test_a_fast_caller_reads_the_cpu_clock_seldom_and_stops_soon():
    run, clocks = attempt(1.0)
    at = stopped_after(run, clocks, 1e-6, 2_000_000)
    assert at is not None and 1.0 < at <= 1.0 + STOP_READING + 1e-6
    assert clocks.readings <= 1.0 / STOP_READING + 3
