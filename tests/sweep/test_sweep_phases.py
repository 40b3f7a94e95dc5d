"""A sweep names its phases on standard error: the plan, each worker's bank
audit, each episode's protocol and exploration scoring, stopping the
workers, the leaderboard;
a finished episode's time says how much of it was the audit."""

from __future__ import annotations

import queue
import re
import subprocess
import sys

from alienworlds.ruleset.phases import Phases
from alienworlds.sweep.local import _queue_counter, await_start

GRID = """
language = "aliencode"
worlds = ["demo"]
agents = ["naive"]
conditions = ["direct"]
trajectories = 1
passes = 1
"""


def sweep(*args: str) -> subprocess.CompletedProcess:
    # a subprocess: the pool's workers write to the standard error they inherit
    return subprocess.run(
        [sys.executable, "-m", "alienworlds.cli.aliencode", "sweep", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def phases(stderr: str) -> list[str]:
    """The lines without heartbeats (which only a slow phase gets) and
    without the times that end each phase."""
    return [
        re.sub(r": done in \d+\.\d s$", ": done", line)
        for line in stderr.splitlines()
        if not re.search(r": \d+ s so far( · .*)?$", line)  # " · 1 of 2 up" at start-up
    ]


def test_each_phase_of_a_sweep_names_itself(tmp_path):
    spec = tmp_path / "sweep.toml"
    spec.write_text(GRID, encoding="utf-8")
    out = tmp_path / "out"
    first = sweep(str(spec), "--out", str(out), "--jobs", "1")
    assert first.returncode == 0, first.stderr
    episode = "aliencode sweep: demo/naive/direct/t1: "
    seen = phases(first.stderr)
    assert seen[0] == (
        "aliencode sweep: 1 episodes planned, 0 finished before; 1 to run in local pool of 1 "
        "(each worker a fresh interpreter that audits a world's bank before its first episode "
        "of that world)"
    )
    assert seen[1] == "aliencode sweep: starting 1 worker process …"
    audit = "loading world demo and auditing its bank (once per worker)"
    assert seen[2:8] == [
        f"{episode}{audit} …",
        f"{episode}{audit}: done",
        f"{episode}protocol …",
        f"{episode}protocol: done",
        f"{episode}scoring exploration …",
        f"{episode}scoring exploration: done",
    ]
    assert re.fullmatch(
        r"aliencode sweep: \[1/1\] demo/naive/direct/t1: done in \d+\.\ds "
        r"\(of which \d+\.\ds loading the world and auditing its bank\) endpoint \d+\.\d%",
        seen[8],
    )
    assert seen[9:] == [
        "aliencode sweep: stopping the workers …",
        "aliencode sweep: stopping the workers: done",
        "aliencode sweep: writing the leaderboard and the curves …",
        "aliencode sweep: writing the leaderboard and the curves: done",
    ]
    again = sweep(str(spec), "--out", str(out), "--resume")
    assert again.returncode == 0, again.stderr
    assert phases(again.stderr)[0].startswith(
        "aliencode sweep: 1 episodes planned, 1 finished before; 0 to run in local pool of "
    )
    assert episode not in again.stderr  # nothing ran: no worker started
    quiet = sweep(str(spec), "--out", str(out), "--resume", "--no-progress")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_a_slow_pool_start_up_says_how_far_it_got_until_the_workers_are_up():
    lines: list[str] = []
    ticks = iter(range(100))  # each look at the clock is one second later
    phases = Phases(lines.append, prefix="sweep: ", heartbeat=2.0, clock=lambda: float(next(ticks)))
    ready: queue.Queue[int] = queue.Queue()
    ready.put(101)  # one of the two workers is up at once, the other never
    signals = iter([None, None, None, None, 2])  # the sweep is stopped at the fifth look
    await_start(
        2, "worker process", _queue_counter(ready), lambda: False, phases, lambda: next(signals)
    )
    assert lines == [
        "sweep: starting 2 worker processes …",
        "sweep: starting 2 worker processes: 2 s so far · 1 of 2 up",
        "sweep: starting 2 worker processes: 4 s so far · 1 of 2 up",
    ]


def test_pool_start_up_ends_without_a_line_once_every_worker_is_up():
    lines: list[str] = []
    phases = Phases(lines.append)
    ready: queue.Queue[int] = queue.Queue()
    for pid in (7, 8, 9):
        ready.put(pid)
    await_start(3, "worker process", _queue_counter(ready), lambda: False, phases, lambda: None)
    assert lines == ["starting 3 worker processes …"]
    assert ready.empty()


def test_pool_start_up_ends_when_a_job_ended_before_every_worker_was_up():
    lines: list[str] = []
    looks = iter([False, True])  # the second look finds a job ended: its worker died starting
    await_start(
        4, "Ray task", lambda timeout: 0, lambda: next(looks), Phases(lines.append), lambda: None
    )
    assert lines == ["starting 4 Ray tasks …"]
