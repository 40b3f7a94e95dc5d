"""`forked_map`: a function over items in forked worker processes.

The battery of a world check judges every task on its own, with caches the
audit filled before (the expected outputs, compiled references). Forked
workers start with all of that already in memory, at no cost; spawned ones
would rebuild it. Results come back in the items' order, so a verdict never
depends on which worker finished first.

A worker starts with only the forking thread. A lock another thread held at
the fork would stay held in the worker for ever, so a process with other
threads (a server's, a heartbeat's) maps in itself instead. One map at a
time: the function in progress is a module global, which the workers inherit.
Ctrl-C reaches the workers too (they share the terminal's process group);
they ignore it and the caller, which ends the pool, reports it once.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

_work: Callable[[int], object] | None = None  # the function of the map in progress


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(index: int) -> object:
    assert _work is not None
    return _work(index)


def forked_map(
    function: Callable[[Item], Result], items: Sequence[Item], jobs: int
) -> list[Result]:
    """[function(item) for item in items], in up to `jobs` forked workers
    (in this process when `jobs` is 1, there is one item, the system cannot
    fork, or another thread runs). An exception in a worker is raised here."""
    jobs = min(jobs, len(items))
    if (
        jobs <= 1
        or "fork" not in multiprocessing.get_all_start_methods()
        or threading.active_count() > 1
    ):
        return [function(item) for item in items]
    global _work
    _work = lambda index: function(items[index])  # noqa: E731 - read by the forked workers
    try:
        with multiprocessing.get_context("fork").Pool(jobs, _ignore_interrupts) as pool:
            return pool.map(_call, range(len(items)), chunksize=1)
    finally:
        _work = None
