"""Whole-process speed of AlienCode against plain CPython (issue 2's goal:
at most 5x, startup included) and `aliencode run` startup time.

Each workload exists twice under benchmarks/workloads/: NAME.alien (standard
world) and NAME.py (the same algorithm in Python). Both run as fresh
processes of the same interpreter; the best of --repeat runs counts. A run's
time is the child's CPU time (user + system), so that other work on a shared
machine inflates neither side; --wall times wall-clock instead.

    python benchmarks/interpreter.py [--repeat 5] [--world W]

With --world, each workload also runs under the standard world and the
last column gives the world's cost relative to it (the rule layer's goal:
benchmarks/worlds/every_site.toml within 1.3x).

Not part of the test suite: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent / "workloads"
WORKLOADS = ("loop", "recursive", "lists")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_time(
    cmd: list[str], repeat: int, stdin: str | None = None, wall: bool = False
) -> tuple[float, str]:
    clock = time.perf_counter if wall else children_cpu
    best = float("inf")
    out = ""
    for _ in range(repeat):
        start = clock()
        proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=False)
        elapsed = clock() - start
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {proc.stdout}{proc.stderr}")
        best = min(best, elapsed)
        out = proc.stdout
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--world", default="standard", help="world to run the AlienCode side in")
    parser.add_argument(
        "--wall", action="store_true", help="time wall-clock instead of the child's CPU time"
    )
    args = parser.parse_args()
    alien = [
        sys.executable,
        "-m",
        "alienworlds.cli.aliencode",
        "run",
        "--world",
        args.world,
        "--max-steps",
        "1000000000",
    ]
    standard = [
        sys.executable,
        "-m",
        "alienworlds.cli.aliencode",
        "run",
        "--world",
        "standard",
        "--max-steps",
        "1000000000",
    ]
    against_standard = args.world != "standard"
    extra = f" {'standard s':>11} {'vs standard':>12}" if against_standard else ""
    print(f"{'workload':<10} {'CPython s':>10} {'AlienCode s':>12} {'ratio':>6}{extra}")
    worst = 0.0
    for name in WORKLOADS:
        py, py_out = best_time(
            [sys.executable, str(HERE / f"{name}.py")], args.repeat, wall=args.wall
        )
        al, al_out = best_time([*alien, str(HERE / f"{name}.alien")], args.repeat, wall=args.wall)
        if not against_standard and py_out.strip() != al_out.strip():
            raise SystemExit(f"{name}: outputs differ: {py_out!r} vs {al_out!r}")
        ratio = al / py
        worst = max(worst, ratio)
        line = f"{name:<10} {py:>10.3f} {al:>12.3f} {ratio:>6.2f}"
        if against_standard:
            st, _ = best_time([*standard, str(HERE / f"{name}.alien")], args.repeat, wall=args.wall)
            line += f" {st:>11.3f} {al / st:>12.2f}"
        print(line)
    startup, _ = best_time(
        [sys.executable, "-m", "alienworlds.cli.aliencode", "run", "--world", args.world, "-"],
        args.repeat,
        stdin="EMIT(1)\n",
        wall=args.wall,
    )
    print(f"worst ratio {worst:.2f}x; startup of a one-line program {startup:.3f} s")


if __name__ == "__main__":
    main()
