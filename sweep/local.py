"""The local executor: a process pool of `--jobs` workers.

Workers are started with `spawn` (a clean interpreter, no copied threads
or locks) and each keeps its environments (the bank audit) for the
episodes it runs. A worker dies with the driver: on Linux it asks the
kernel for SIGKILL when its parent goes (PR_SET_PDEATHSIG), so a killed
sweep leaves no orphan writing traces behind a resumed one (the folder lock
of `worker` guards that too). Workers sit in process groups of their own,
so Ctrl-C at a terminal reaches only the driver, which passes the stop on
(see `stopping`). A worker that dies (killed, out of memory)
breaks the pool: the episodes it held are started again in a fresh pool,
from their traces, at most `MAX_STARTS` times each.

Per-endpoint gates live in a `multiprocessing` manager process; workers
get proxies to them with each job.
"""

from __future__ import annotations

import os
import queue as queues
import signal
import sys
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from multiprocessing.managers import BaseManager
from pathlib import Path

from alienworlds.episode.interrupt import leave_to_default
from alienworlds.ruleset.phases import Phases

from .gates import Gate
from .plan import Job
from .stopping import POLL, never
from .worker import run_job

MAX_STARTS = 3  # an episode whose worker died this often is recorded as failed
PR_SET_PDEATHSIG = 1


class GateManager(BaseManager):
    """Serves the sweep's gates to the pool's workers."""


GateManager.register("Gate", Gate)


def _start_worker(parent: int, ready: object) -> None:
    """Start-up of a pool worker: as `_die_with_parent`, then tell the
    driver this interpreter is up (its imports done), so the driver can say
    how long start-up is taking until the worker names its own phases."""
    _die_with_parent(parent)
    ready.put(os.getpid())


def _die_with_parent(parent: int) -> None:
    """Start-up of a pool worker (and of the gates' manager): die with the
    driver; take SIGINT only inside an episode (whose own handler stops it
    cleanly), never while idle. SIGTERM keeps its default, inside an
    episode too: when one worker died, the pool terminates the others with
    it, and the dead one may hold a lock of the pool's queues for ever, so
    a worker that outlived SIGTERM to end its episode cleanly would wait on
    that lock, and the pool's shutdown on it."""
    # out of the terminal's process group: Ctrl-C reaches the driver, which passes it on once
    os.setpgrp()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    leave_to_default(signal.SIGTERM)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the driver died before the request took effect
        os._exit(1)


def failed(job: Job, error: str, status: str = "failed") -> dict:
    return {
        "key": job.key,
        "status": status,
        "error": error,
        "seconds": 0.0,
        "system": None,
        "endpoint": None,
    }


def run_local(
    jobs: list[Job],
    root: Path,
    workers: int,
    endpoints: dict[str, int],
    on_outcome: Callable[[dict], None],
    stop: Callable[[], int | None] = never,
    announce: bool = False,
    phases: Phases | None = None,
) -> None:
    """Run `jobs` in a pool of `workers` processes, calling `on_outcome` in
    this process as each ends (status `lost` when its worker died and it
    will run again). At most `workers` jobs are in the pool at once, so a
    worker's death touches only the episodes then running. Once `stop()`
    gives a signal, it is passed on to the workers, whose episodes stop
    cleanly; nothing more starts, and this returns when they have. With
    `announce`, workers name their phases on standard error; `phases`
    names this process's own (stopping the workers)."""
    phases = phases or Phases(None)
    if not jobs:
        return
    ctx = get_context("spawn")
    manager = None
    gates: dict[str, object] = {}
    if any(job.endpoint for job in jobs):
        manager = GateManager(ctx=ctx)
        manager.start(initializer=_die_with_parent, initargs=(os.getpid(),))
        gates = {url: manager.Gate(limit) for url, limit in endpoints.items()}
    starts: Counter[str] = Counter()
    queue = list(jobs)
    ready = ctx.Queue()
    try:
        while queue and not stop():
            pool = ProcessPoolExecutor(
                max_workers=max(1, min(workers, len(queue))),
                mp_context=ctx,
                initializer=_start_worker,
                initargs=(os.getpid(), ready),
            )
            running: dict[object, Job] = {}
            broken = stopping = False
            spawning = True
            try:
                while queue or running:
                    if stop() and not stopping:
                        stopping = True
                        _stop_workers(pool)
                    while queue and not (broken or stopping) and len(running) < workers:
                        job = queue[0]
                        try:
                            future = pool.submit(
                                run_job, job, str(root), gates.get(job.endpoint), announce=announce
                            )
                        except BrokenProcessPool:
                            # a worker died after the last wait: the job never started here
                            broken = True
                            break
                        queue.pop(0)
                        starts[job.key] += 1
                        running[future] = job
                    if not running:
                        break
                    if spawning:  # the pool starts a worker per job submitted while none is idle
                        await_start(
                            len(running),
                            "worker process",
                            _queue_counter(ready),
                            lambda: any(future.done() for future in running),
                            phases,
                            stop,
                        )
                        spawning = False
                    done, _ = wait(running, timeout=POLL, return_when=FIRST_COMPLETED)
                    for future in done:
                        job = running.pop(future)
                        try:
                            outcome = future.result()
                        except (
                            BrokenProcessPool
                        ):  # a worker died: this pool is finished, its episodes run again
                            broken = True
                            if job.endpoint:
                                gates[job.endpoint].release_all(job.key)
                            if stopping:
                                on_outcome(failed(job, "stopped", "interrupted"))
                            elif starts[job.key] >= MAX_STARTS:
                                on_outcome(
                                    failed(job, f"its worker process died {starts[job.key]} times")
                                )
                            else:
                                on_outcome(
                                    failed(
                                        job,
                                        "its worker process died; it runs again from its trace",
                                        "lost",
                                    )
                                )
                                queue.insert(0, job)
                            continue
                        except Exception as exc:  # noqa: BLE001 - e.g. an outcome that could not travel back
                            outcome = failed(job, f"{type(exc).__name__}: {exc}")
                        on_outcome(outcome)
            finally:
                # a worker's interpreter takes seconds to end when it holds a large world
                with phases.phase("stopping the workers"):
                    pool.shutdown(wait=True, cancel_futures=True)
    finally:
        ready.close()
        if manager is not None:
            manager.shutdown()


def await_start(
    count: int,
    what: str,
    wait_up: Callable[[float], int],
    ended: Callable[[], bool],
    phases: Phases,
    stop: Callable[[], int | None],
) -> None:
    """Name the start-up of `count` workers (`what`, e.g. "worker process"),
    seconds of fresh interpreters importing the project, and say at each
    heartbeat how far it got, until all are up (each then names its own
    phases), `ended()` (a job ended: a worker died starting) or `stop()`
    gives a signal. `wait_up(timeout)` waits at most `timeout` seconds and
    returns how many are up so far. No end line: it would race the
    workers' first lines."""
    noun = what if count == 1 else f"{what}es" if what.endswith("s") else f"{what}s"
    phases.say(f"starting {count} {noun} …")
    started = last = phases.clock()
    up = 0
    while up < count and not stop() and not ended():
        up = wait_up(POLL)
        now = phases.clock()
        if phases.heartbeat and up < count and now - last >= phases.heartbeat:
            last = now
            phases.say(
                f"starting {count} {noun}: {now - started:.0f} s so far · {up} of {count} up"
            )


def _queue_counter(ready: object) -> Callable[[float], int]:
    """`wait_up` for a pool whose workers put their pid on `ready` when up."""
    up = 0

    def wait_up(timeout: float) -> int:
        nonlocal up
        try:
            ready.get(timeout=timeout)
            up += 1
        except queues.Empty:
            pass
        return up

    return wait_up


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Pass a stop on to the workers as SIGINT, whatever stopped the driver:
    an episode stops cleanly on it, with its trace closed, and an idle
    worker ignores it. (SIGTERM would kill an idle worker that may hold the
    pool's queue lock, and hang the others.)"""
    for process in list(getattr(pool, "_processes", {}).values()):
        try:
            os.kill(process.pid, signal.SIGINT)
        except (OSError, AttributeError):
            pass
