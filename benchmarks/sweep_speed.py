"""How long the test sweep takes: the built-in agents (oracle, naive, fixed)
over 2 worlds (demo and a copy of it under another name, given as a file
with its bank beside it) × 2 conditions (direct, autonomous) × 2
trajectories, one answer a task: 24 episodes.

    python benchmarks/sweep_speed.py [--ray]

Runs the sweep in the local pool with 1 and with 2 jobs, then (with --ray)
starts an embedded Ray with 2 CPUs, times its start-up, a no-op task's
round trip, and the same sweep on it. Wall times on a shared machine are
noisy: the CPU time of the driver and its children is printed beside them.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "sweep"))

from alienworlds.sweep import load_sweep, run_sweep  # noqa: E402
from sweep_testing import twin_world, write_sweep  # noqa: E402


def cpu() -> float:
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(label: str, spec, out: Path, **options) -> float:
    shutil.rmtree(out, ignore_errors=True)
    wall, used = time.perf_counter(), cpu()
    result = run_sweep(spec, out, **options)
    wall, used = time.perf_counter() - wall, cpu() - used
    episodes = sum(e["seconds"] or 0 for e in result.state.episodes.values())
    print(
        f"{label:<28} {wall:6.2f} s wall · {used:6.2f} s CPU (this process and its pool) · "
        f"{result.counts['done']}/{result.counts['episodes']} done · episodes' own time "
        f"{episodes:.2f} s"
    )
    return wall


def _noop() -> None:
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ray", action="store_true", help="also time an embedded Ray")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spec = load_sweep(write_sweep(folder, twin_world(folder / "twin")), "aliencode")
        timed("local pool, 1 job", spec, folder / "one", jobs=1)
        pool = timed("local pool, 2 jobs", spec, folder / "two", jobs=2)
        if not args.ray:
            return
        import ray

        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
        print(f"{'Ray start-up (2 CPUs)':<28} {time.perf_counter() - started:6.2f} s wall")
        noop = ray.remote(num_cpus=1)(_noop)
        ray.get([noop.remote() for _ in range(4)])  # the workers are up
        started = time.perf_counter()
        ray.get([noop.remote() for _ in range(200)])
        print(
            f"{'Ray no-op task':<28} {(time.perf_counter() - started) / 200 * 1000:6.2f} ms per "
            "task (200 tasks, 2 CPUs)"
        )
        on_ray = timed("Ray, 2 CPUs (already up)", spec, folder / "ray", ray="local")
        print(
            f"{'Ray minus pool of 2':<28} {(on_ray - pool) / 24 * 1000:6.0f} ms per episode (the "
            "pool's includes starting "
            "its workers; Ray's were started above)"
        )
        ray.shutdown()


if __name__ == "__main__":
    main()
