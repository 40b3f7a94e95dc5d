"""forked_map (tasks/forked_map.py): a map over forked workers that gives what
the plain map gives, in order, and raises what a worker raised."""

import os
import signal
import subprocess
import sys

import pytest
from alienworlds.tasks.forked_map import forked_map, usable_cores
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

OFFSET = 7  # a module-level value a forked worker sees without being sent it


def pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x + OFFSET


@settings(max_examples=examples(10), deadline=None)
@given(st.lists(st.integers(-1000, 1000), max_size=12), st.integers(1, 4))
def test_the_results_are_the_plain_maps_in_order(items, jobs):
    assert [r for _, r in forked_map(pid_and_square, items, jobs)] == [
        x * x + OFFSET for x in items
    ]


# Run in a fresh interpreter: whether a map forks depends on the threads alive
# (see the last test), and a test run may have left some in its own process.
WORKERS = """
import os
import threading
from alienworlds.tasks.forked_map import forked_map

def pid_and(x):
    return os.getpid(), x

seen = {"factor": 3}  # a closure over local state: never pickled, inherited by the fork
results = forked_map(lambda x: (os.getpid(), x * seen["factor"]), list(range(8)), 2)
assert [r for _, r in results] == [x * 3 for x in range(8)], results
assert os.getpid() not in {pid for pid, _ in results}
stop = threading.Event()
other = threading.Thread(target=stop.wait)
other.start()
alongside = {pid for pid, _ in forked_map(pid_and, [1, 2, 3, 4], 2)}
stop.set()
other.join()
assert alongside == {os.getpid()}, alongside
assert os.getpid() not in {pid for pid, _ in forked_map(pid_and, [1, 2, 3, 4], 2)}
print("ok")
"""


def test_workers_are_other_processes_unless_another_thread_runs():
    """Workers see the caller's state without it being sent. A process with
    another thread alive maps in itself: a lock that thread held at a fork
    would never be released in a worker."""
    done = subprocess.run(
        [sys.executable, "-c", WORKERS], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")


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
import signal
import time
from alienworlds.tasks.forked_map import forked_map

# Ctrl-C at a terminal raises KeyboardInterrupt in a Python program; a
# process that started with SIGINT ignored keeps ignoring it, and the test
# runner may have: a non-interactive shell starts a job it puts in the
# background (`.ci/run &`) with SIGINT ignored, and every process below inherits it
signal.signal(signal.SIGINT, signal.default_int_handler)

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
    assert (out, err) == ("interrupted\n", ""), process.returncode
