"""forked_map (tasks/forked_map.py): a map over forked workers that gives what
the plain map gives, in order, and raises what a worker raised."""

import os
import signal
import subprocess
import sys
import threading

import pytest
from alienworlds.tasks.forked_map import forked_map, usable_cores
from hypothesis import given, settings
from hypothesis import strategies as st

OFFSET = 7  # a module-level value a forked worker sees without being sent it


def pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x + OFFSET


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(-1000, 1000), max_size=12), st.integers(1, 4))
def test_the_results_are_the_plain_maps_in_order(items, jobs):
    assert [r for _, r in forked_map(pid_and_square, items, jobs)] == [
        x * x + OFFSET for x in items
    ]


def test_workers_are_other_processes_and_see_the_callers_state():
    seen = {"factor": 3}  # a closure over local state: never pickled, inherited by the fork
    results = forked_map(lambda x: (os.getpid(), x * seen["factor"]), list(range(8)), 2)
    assert [r for _, r in results] == [x * 3 for x in range(8)]
    assert os.getpid() not in {pid for pid, _ in results}


def test_one_job_runs_here():
    assert {pid for pid, _ in forked_map(pid_and_square, [1, 2, 3], 1)} == {os.getpid()}


def test_a_workers_exception_is_raised_to_the_caller():
    def fails_on_three(x):
        if x == 3:
            raise ValueError("three")
        return x

    with pytest.raises(ValueError, match="three"):
        forked_map(fails_on_three, [1, 2, 3, 4], 2)


def test_usable_cores_is_at_least_one():
    assert 1 <= usable_cores() <= (os.cpu_count() or 1)


INTERRUPTED = """
import os
import time
from alienworlds.tasks.forked_map import forked_map

def slow(x):
    os.write(1, b"started\\n")  # one write: the two workers' lines never interleave
    end = time.monotonic() + 30
    while time.monotonic() < end:
        pass
    return x

try:
    forked_map(slow, [1, 2], 2)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_ends_the_map_once_without_a_workers_traceback():
    """Ctrl-C at a terminal reaches the whole process group: the workers
    ignore it, the caller gets one KeyboardInterrupt and ends the pool."""
    process = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )
    started = [process.stdout.readline(), process.stdout.readline()]
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert started == ["started\n", "started\n"]
    assert (out, err) == ("interrupted\n", "")


def test_a_process_with_another_thread_maps_in_itself():
    """A lock the other thread held at a fork would never be released in a
    worker: no fork then."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        pids = {pid for pid, _ in forked_map(pid_and_square, [1, 2, 3, 4], 2)}
    finally:
        stop.set()
        other.join()
    assert pids == {os.getpid()}
    assert os.getpid() not in {pid for pid, _ in forked_map(pid_and_square, [1, 2, 3, 4], 2)}
