"""The `sweep` command, registered on a language's CLI:

from alienworlds.cli.sweep import register
register(main, "aliencode")     # aliencode sweep
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from alienworlds.cli.shared import EXIT_BAD_INPUT, EXIT_OK, echo_json
from alienworlds.cli.shared import EXIT_NO as EXIT_STOPPED
from alienworlds.episode.leaderboard import RANKINGS
from alienworlds.sweep import limits
from alienworlds.sweep.bounded_toml import shape

EXIT_FAILURES = 10  # 10 + k: k episodes failed (k capped at 100)
MAX_COUNTED = 100


def failures_status(failed: int) -> int:
    """The exit status of a sweep in which `failed` episodes failed."""
    return EXIT_OK if failed == 0 else EXIT_FAILURES + min(failed, MAX_COUNTED)


def register(group: click.Group, language: str) -> None:
    group.add_command(sweep_command(language))


def sweep_command(language: str) -> click.Command:
    @click.command("sweep")
    @click.argument("sweep_file", type=click.Path(dir_okay=False), metavar="SWEEP.toml")
    @click.option(
        "--out",
        type=click.Path(file_okay=False),
        default=None,
        metavar="DIR",
        help="The sweep's folder: one episode per DIR/<world>/<agent>/<condition>/tN, "
        "sweep.json, the "
        "leaderboard (default: out/sweeps/<name of SWEEP.toml>).",
    )
    @click.option(
        "--resume",
        is_flag=True,
        help="Continue the sweep in DIR: finished episodes are skipped, unfinished and failed "
        "ones continue "
        "from their traces.",
    )
    @click.option(
        "--jobs",
        type=click.IntRange(1, limits.JOBS),
        default=None,
        metavar="N",
        help="Episodes at once: the local pool's workers (default: the number of cores); with "
        "--ray, at most "
        "this many tasks in flight (default: as many as the cluster's CPUs take).",
    )
    @click.option(
        "--ray",
        "ray_address",
        metavar="ADDRESS",
        help="Run the episodes as Ray tasks on the cluster at ADDRESS (e.g. auto, "
        "ray://head:10001, "
        "head:6379), or on an embedded local Ray with 'local'. Needs alienworlds[ray].",
    )
    @click.option(
        "--runtime-env",
        "runtime_env",
        metavar="JSON",
        help="With --ray: Ray's runtime environment for the workers, a JSON object (e.g. "
        '\'{"pip": ["alienworlds[ray]"]}\'); the API key variables the agents name are added to '
        "its env_vars.",
    )
    @click.option(
        "--rank",
        type=click.Choice(list(RANKINGS)),
        default="best",
        show_default=True,
        help="Rank systems by chance-corrected Best@n or Mean@n.",
    )
    @click.option(
        "--json", "as_json", is_flag=True, help="Print the counts and the leaderboard as JSON."
    )
    @click.option(
        "--progress/--no-progress",
        default=True,
        show_default=True,
        help="On standard error: one line per generated world and per finished episode, and "
        "each worker's phases (the bank audit, each episode's protocol and exploration scoring).",
    )
    def sweep(sweep_file, out, resume, jobs, ray_address, runtime_env, rank, as_json, progress):
        """Run many episodes and rank the systems on one leaderboard.

        SWEEP.toml names the grid (worlds, agents with their model and
        endpoint settings, conditions, trajectories, passes) and per-endpoint
        limits on requests in flight; see docs/sweeps.md. Worlds named by
        generator seeds are generated first, each a task of its own, into
        DIR/worlds/<family>-<i>. Every episode is an
        independent, resumable folder DIR/<world>/<agent>/<condition>/tN,
        trajectory i with seed `seed + i - 1`. A failing episode is recorded
        (DIR/sweep.json, the leaderboard's failures column) and the rest go
        on. Writes DIR/leaderboard.md, .json and .html and the curves.

        Exit status: 0 every episode finished · 1 the sweep could not run
        (Ray unavailable, an unreadable DIR/sweep.json) · 2 bad input (the
        sweep file, DIR) · 10 + k: k episodes failed (110: 100 or more) ·
        130 / 143 stopped by SIGINT / SIGTERM (--resume continues it).
        """
        from alienworlds.episode import leaderboard
        from alienworlds.sweep.ray_exec import RayUnavailable
        from alienworlds.sweep.runner import run_sweep
        from alienworlds.sweep.spec import SweepError, load_sweep
        from alienworlds.sweep.state import StateError
        from alienworlds.sweep.stopping import Stopped, StopSignals

        def say(line: str) -> None:
            click.echo(f"{language} sweep: {line}", err=True)

        try:
            spec = load_sweep(sweep_file, language)
        except SweepError as exc:
            for problem in exc.problems:
                say(problem)
            sys.exit(EXIT_BAD_INPUT)
        runtime = None
        if runtime_env is not None:
            try:
                if (
                    shape(runtime_env).depth > limits.FILE.max_depth
                ):  # the JSON parser recurses once per level
                    raise ValueError("nested too deeply")
                runtime = json.loads(runtime_env)
            except ValueError as exc:
                runtime = exc
            if not isinstance(runtime, dict) or not ray_address:
                say(
                    "--runtime-env: expected a JSON object"
                    if ray_address
                    else "--runtime-env goes with --ray ADDRESS"
                )
                sys.exit(EXIT_BAD_INPUT)
        root = Path(out) if out else Path("out") / "sweeps" / Path(sweep_file).stem
        try:
            with StopSignals() as stop:
                result = run_sweep(
                    spec,
                    root,
                    resume=resume,
                    jobs=jobs,
                    ray=ray_address,
                    rank_by=rank,
                    note=say if progress else (lambda line: None),
                    runtime_env=runtime,
                    stop=stop,
                    announce=progress,
                )
        except StateError as exc:
            say(str(exc))
            sys.exit(EXIT_BAD_INPUT)
        except RayUnavailable as exc:
            say(str(exc))
            sys.exit(EXIT_STOPPED)
        except Stopped as exc:
            say(
                f"{exc}; the leaderboard covers the episodes finished so far; "
                f"continue with: {language} sweep {sweep_file} --out {root} --resume"
            )
            sys.exit(128 + exc.signum)
        counts = result.counts
        if as_json:
            echo_json(
                {
                    "out": str(root),
                    "counts": counts,
                    "skipped": result.skipped,
                    "failed": [
                        e for e in result.state.episodes.values() if e["status"] == "failed"
                    ],
                    "leaderboard": leaderboard.as_json(result.boards, rank),
                }
            )
        else:
            click.echo(leaderboard.text(result.boards, rank))
            click.echo()
            click.echo(
                f"{counts['done']} of {counts['episodes']} episodes done ({result.skipped} "
                "finished before), "
                f"{counts['failed']} failed, {counts['pending']} pending · out {root}"
            )
            for episode in result.state.episodes.values():
                if episode["status"] == "failed":
                    click.echo(f"failed: {episode['key']}: {episode['error']}")
            click.echo(
                "wrote " + ", ".join(p.name for p in result.written) + f" and sweep.json in {root}"
            )
        sys.exit(failures_status(counts["failed"]) if not counts["pending"] else EXIT_STOPPED)

    return sweep
