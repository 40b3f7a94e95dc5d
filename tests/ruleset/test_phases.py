"""Phases name themselves: a line at the start, one with the wall time at
the end, and heartbeat lines while a phase runs; nothing when off."""

import threading

import pytest
from alienworlds.ruleset.phases import Phases
from hypothesis import given
from hypothesis import strategies as st


class Clock:
    def __init__(self):
        self.now = 50.0

    def __call__(self):
        return self.now


def test_a_phase_says_when_it_starts_and_how_long_it_took():
    lines, clock = [], Clock()
    phases = Phases(lines.append, "aliencode: ", heartbeat=None, clock=clock)
    with phases.phase("auditing the bank") as timer:
        clock.now += 12.34
    assert timer.seconds == pytest.approx(12.34)
    assert lines == [
        "aliencode: auditing the bank …",
        "aliencode: auditing the bank: done in 12.3 s",
    ]


def test_a_failing_phase_leaves_the_report_to_its_caller():
    lines = []
    phases = Phases(lines.append, heartbeat=None)
    with pytest.raises(KeyError), phases.phase("drawing a world"):
        raise KeyError("x")
    assert lines == ["drawing a world …"]


def test_off_writes_nothing_and_still_times():
    clock = Clock()
    phases = Phases(None, clock=clock)
    with phases.phase("scoring exploration") as timer:
        clock.now += 3.0
    phases.say("anything")
    assert timer.seconds == 3.0


def test_a_long_phase_beats_with_its_status():
    lines, beaten = [], threading.Event()

    def write(line):
        lines.append(line)
        if "so far" in line:
            beaten.set()

    phases = Phases(write, "w: ", heartbeat=0.01)
    with phases.phase("drawing tasks", status=lambda: "3 of 40 tasks"):
        assert beaten.wait(30), "no heartbeat"
    assert lines[0] == "w: drawing tasks …" and lines[-1].startswith("w: drawing tasks: done in ")
    beats = lines[1:-1]
    assert beats and all(
        b.startswith("w: drawing tasks: ") and b.endswith(" s so far · 3 of 40 tasks")
        for b in beats
    )


def test_a_heartbeat_on_a_lost_stream_stops_quietly(capfd):
    failed = threading.Event()

    def write(line):
        if "so far" in line:
            failed.set()
            raise BrokenPipeError("gone")

    phases = Phases(write, heartbeat=0.01)
    with phases.phase("waiting"):
        assert failed.wait(30)
    assert "Traceback" not in capfd.readouterr().err


@given(st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=5), st.floats(0, 1e5))
def test_nested_phases_end_in_reverse_order(names, spent):
    lines, clock = [], Clock()
    phases = Phases(lines.append, heartbeat=None, clock=clock)

    def run(rest):
        if not rest:
            clock.now += spent
            return
        with phases.phase(rest[0]):
            run(rest[1:])

    run(names)
    assert lines[: len(names)] == [f"{n} …" for n in names]
    assert [line.rsplit(": done in ", 1)[0] for line in lines[len(names) :]] == names[::-1]
