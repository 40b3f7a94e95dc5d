"""The suite's machine-speed factor (machine_speed.py)."""

from __future__ import annotations

import itertools

import machine_speed
import pytest


@pytest.fixture
def clock(monkeypatch):
    """A process clock that advances `step` seconds per reading."""

    def install(step: float) -> None:
        ticks = itertools.count()
        monkeypatch.setattr(machine_speed.time, "process_time", lambda: next(ticks) * step)
        machine_speed.slowness.cache_clear()

    yield install
    machine_speed.slowness.cache_clear()


def test_a_machine_twice_as_slow_doubles_every_budget(clock):
    clock(2 * machine_speed.REFERENCE)
    assert machine_speed.slowness() == pytest.approx(2.0)
    assert machine_speed.scaled(2.0) == pytest.approx(4.0)


def test_a_faster_machine_keeps_the_budgets_as_set(clock):
    clock(machine_speed.REFERENCE / 4)
    assert machine_speed.slowness() == 1.0
    assert machine_speed.scaled(0.5) == 0.5


def test_this_machine_is_measured_once():
    first = machine_speed.slowness()
    assert first >= 1.0 and machine_speed.slowness() is first
