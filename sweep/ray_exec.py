"""The Ray executor: every episode a Ray task on the cluster at an address
(`--ray ADDRESS`), or on an embedded local Ray (`--ray local`).

Tasks ask for one CPU each, so the cluster's CPUs bound how many run at
once (`--jobs`, when given, bounds it further). A task whose worker
process dies is retried by Ray (`MAX_STARTS` runs in all); the retry
continues the episode from its trace. Per-endpoint gates are threaded
actors. A process that already called `ray.init` (a notebook, the tests)
keeps its Ray: the sweep uses it and leaves it running.

Workers write each episode's folder at the same path as the driver's
`--out`: on a cluster of several machines that path must be on a shared
file system (docs/sweeps.md). Worlds and banks given as files travel with
the task, and the API key variables the sweep's agents name are passed to
the workers' environment when they are set on the driver.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from alienworlds.ruleset.phases import Phases

from .gates import Gate, ray_permits
from .local import MAX_STARTS, await_start, failed
from .plan import Job
from .stopping import POLL, never
from .worker import run_job

GATE_THREADS = 1024  # a gate's waiting acquires each hold one of its actor's threads
STOP_GRACE = 30.0  # seconds a stopped sweep waits for its running episodes to close their traces


class RayUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be reached."""


class Started:
    """Counts the tasks that reached a worker: the driver's start-up line
    waits on it (Ray starts worker processes, and imports the project in
    them, before a task runs)."""

    def __init__(self) -> None:
        self.count = 0

    def mark(self) -> None:
        self.count += 1

    def seen(self) -> int:
        return self.count


def _run_remote(job: Job, root: str, gate: object, started: object, announce: bool) -> dict:
    started.mark.remote()
    return run_job(job, root, gate, ray_permits, announce=announce)


def connect(
    address: str, workers: int | None, env_vars: dict[str, str], runtime_env: dict | None = None
) -> bool:
    """Start or join Ray; True when this call started it (and so should stop
    it). The workers' runtime environment is `runtime_env` (e.g. `pip`,
    `py_modules`, `working_dir`) with `env_vars` added to its own."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            "--ray needs the ray package: pip install 'alienworlds[ray]'"
        ) from None
    if ray.is_initialized():
        return False
    options: dict[str, object] = {"logging_level": logging.WARNING, "include_dashboard": False}
    runtime = dict(runtime_env or {})
    if env_vars and address != "local":  # a local Ray's workers inherit this environment
        runtime["env_vars"] = {**env_vars, **(runtime.get("env_vars") or {})}
    if runtime:
        options["runtime_env"] = runtime
    try:
        if address == "local":
            ray.init(num_cpus=workers or os.cpu_count() or 1, **options)
        else:
            ray.init(address=address, **options)
    except Exception as exc:  # noqa: BLE001 - whatever Ray raises, the user needs the address and the reason
        raise RayUnavailable(
            f"cannot start or reach Ray at {address!r}: {type(exc).__name__}: {exc}"
        ) from None
    return True


def run_ray(
    jobs: list[Job],
    root: Path,
    workers: int | None,
    endpoints: dict[str, int],
    on_outcome: Callable[[dict], None],
    stop: Callable[[], int | None] = never,
    announce: bool = False,
    phases: Phases | None = None,
) -> None:
    """Run `jobs` as Ray tasks on the Ray `connect` reached, calling
    `on_outcome` here as each ends. Once `stop()` gives a signal, the
    running tasks are cancelled (each episode stops as on Ctrl-C, its trace
    closed) and nothing more starts. With `announce`, the tasks name their
    phases on their standard error, which Ray shows on the driver's;
    `phases` names this process's own (the tasks' start-up)."""
    if not jobs:
        return
    import ray

    phases = phases or Phases(None)
    gate_actor = ray.remote(max_concurrency=GATE_THREADS, num_cpus=0)(Gate)
    gates = {url: gate_actor.remote(limit) for url, limit in endpoints.items()}
    started = ray.remote(num_cpus=0)(Started).remote()
    task = ray.remote(num_cpus=1, max_retries=MAX_STARTS - 1)(_run_remote)
    queue = list(jobs)
    running: dict[object, Job] = {}
    first = True
    while (queue or running) and not stop():
        while queue and (workers is None or len(running) < workers):
            job = queue.pop(0)
            ref = task.remote(job, str(root), gates.get(job.endpoint), started, announce)
            running[ref] = job
        if first:
            first = False

            def wait_up(timeout: float) -> int:
                ray.wait(list(running), timeout=timeout)  # returns early when a task ends
                return ray.get(started.seen.remote())

            # tasks beyond the cluster's CPUs wait for one of these to end, not for start-up
            cpus = int(ray.cluster_resources().get("CPU", len(running)))
            await_start(
                max(1, min(len(running), cpus)),
                "Ray task",
                wait_up,
                lambda: bool(ray.wait(list(running), timeout=0)[0]),
                phases,
                stop,
            )
        done, _ = ray.wait(list(running), num_returns=1, timeout=POLL)
        for ref in done:
            job = running.pop(ref)
            try:
                outcome = ray.get(ref)
            except (
                ray.exceptions.RayError
            ) as exc:  # the worker died MAX_STARTS times, or Ray lost the task
                if job.endpoint:
                    gates[job.endpoint].release_all.remote(job.key)
                first = str(exc).splitlines()[0] if str(exc) else ""
                outcome = failed(job, f"Ray: {type(exc).__name__}: {first}".rstrip(": "))
            on_outcome(outcome)
    if running:
        _stop(ray, running, on_outcome)


def disconnect() -> None:
    import ray

    ray.shutdown()


def _stop(ray: object, running: dict[object, Job], on_outcome: Callable[[dict], None]) -> None:
    """Cancel the running tasks (each episode stops as on Ctrl-C, its trace
    closed) and take the outcomes that still arrive."""
    for ref in running:
        ray.cancel(ref)
    done, _ = (
        ray.wait(list(running), num_returns=len(running), timeout=STOP_GRACE)
        if running
        else ([], [])
    )
    for ref in done:
        try:
            on_outcome(ray.get(ref))
        except ray.exceptions.RayError:
            pass
