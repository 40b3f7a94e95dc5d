"""Run a sweep: plan its episodes, skip the finished ones, hand the rest to
an executor (a local process pool or Ray), record each outcome in
sweep.json as it arrives, and write the leaderboard, also when the sweep
is stopped (then over the episodes finished so far).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from alienworlds.ruleset.phases import Phases

from . import board
from .generation import generate_worlds
from .plan import Job, plan
from .spec import Sweep
from .state import State, finished, prepare
from .stopping import Stopped, never


@dataclass
class Result:
    counts: dict[str, int]  # episodes, done, failed, pending
    skipped: int  # finished before this run
    boards: list
    written: list[Path]
    state: State


def run_sweep(
    sweep: Sweep,
    root: str | Path,
    resume: bool = False,
    jobs: int | None = None,
    ray: str | None = None,
    rank_by: str = "best",
    note: Callable[[str], None] = lambda line: None,
    runtime_env: dict | None = None,
    stop: Callable[[], int | None] = never,
    announce: bool = False,
) -> Result:
    """Generate the sweep's worlds named by seed (see `generation`), then run
    every unfinished episode of `sweep` into `root`; `note` gets one line
    per generated world and per finished episode. With `ray` (an address, or "local"),
    `runtime_env` is Ray's runtime environment for the workers. Raises
    StateError (the folder) and RayUnavailable; once `stop()` gives a
    signal (see `stopping`), the running episodes stop, and `Stopped` is
    raised after the record and the leaderboard are written. With
    `announce`, the workers (the local pool's, or Ray's) name their phases
    (the bank audit, each episode's protocol and exploration scoring) on
    standard error."""
    root = Path(
        root
    ).resolve()  # workers (Ray's, on other nodes too) do not share the driver's working folder
    earlier = prepare(root, resume)
    started_ray = False
    if ray:
        from . import ray_exec

        env_vars = {v: os.environ[v] for v in sweep.key_variables() if v in os.environ}
        with Phases(note).phase(f"starting or joining Ray at {ray}"):
            started_ray = ray_exec.connect(ray, jobs, env_vars, runtime_env)
    workers = jobs or os.cpu_count() or 1
    root.mkdir(parents=True, exist_ok=True)
    sweep, broken = generate_worlds(sweep, root, workers, bool(ray), note, stop)
    if stop():
        if started_ray:
            ray_exec.disconnect()
        raise Stopped(stop())
    planned = plan(sweep)
    executor = (
        f"ray {ray}" + (f" ({jobs} at once)" if jobs else "") if ray else f"local pool of {workers}"
    )
    state = State(root, sweep, planned, earlier, executor)
    todo: list[Job] = []
    for job in planned:
        if job.world_label in broken:
            state.mark(
                job.key, "failed", error=f"world {job.world_label}: {broken[job.world_label]}"
            )
        elif finished(root / job.key, job):
            state.mark(job.key, "done", error=None)
        else:
            todo.append(job)
    skipped = len(planned) - len(todo)
    state.write()
    total = len(planned)
    note(
        f"{total} episodes planned, {skipped} finished before; {len(todo)} to run in {executor}"
        + (
            " (each worker a fresh interpreter that audits a world's bank before its first "
            "episode of that world)"
            if todo and not ray
            else ""
        )
    )

    def on_outcome(outcome: dict) -> None:
        key, status = outcome["key"], outcome["status"]
        episode = state.episodes[key]
        fields = {
            "starts": episode["starts"] + 1,
            "seconds": outcome["seconds"],
            "error": outcome["error"],
        }
        if outcome.get("system") is not None:
            fields["system"] = outcome["system"]
        state.mark(key, status if status in ("done", "failed") else "pending", **fields)
        state.write()
        counts = state.counts()
        shown = (
            f"endpoint {outcome['endpoint']:.1f}%" if outcome.get("endpoint") is not None else ""
        )
        setup = outcome.get("setup_seconds") or 0.0
        spent = f"done in {outcome['seconds']:.1f}s" + (
            f" (of which {setup:.1f}s loading the world and auditing its bank)"
            if setup >= 0.05
            else ""
        )
        what = {
            "done": f"{spent} {shown}".rstrip(),
            "failed": f"FAILED: {outcome['error']}",
            "interrupted": "stopped (resume continues it)",
            "lost": outcome["error"],
        }[status]
        note(f"[{counts['done'] + counts['failed']}/{total}] {key}: {what}")

    try:
        if ray:
            ray_exec.run_ray(
                todo, root, jobs, sweep.endpoints, on_outcome, stop, announce, Phases(note)
            )
        else:
            from .local import run_local

            run_local(
                todo, root, workers, sweep.endpoints, on_outcome, stop, announce, Phases(note)
            )
    finally:
        if started_ray:
            ray_exec.disconnect()
        state.write()
        with Phases(note).phase("writing the leaderboard and the curves"):
            built = board.boards(root, planned, state.episodes, rank_by)
            written = board.write(root, built, rank_by)
    if stop():
        raise Stopped(stop())
    return Result(state.counts(), skipped, built, written, state)
