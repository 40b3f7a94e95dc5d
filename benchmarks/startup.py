"""Start-up of `aliencode run` against bare `python3 -c pass`.

Times `aliencode run --world standard examples/hello.alien` (as
`python -m alienworlds.cli.aliencode`, the console script's code) and a bare
`python -c pass`, each as fresh processes, alternating, and prints the best
of --repeat of each: the child's CPU time (user + system, so that other work
on a shared machine inflates neither side) and its wall-clock time.

    python benchmarks/startup.py [--repeat 20] [--baseline PYTHON]

--baseline also times the run under another interpreter (another
checkout's virtual environment), in the same run. The goal (issue 28): at
most 0.10 s of CPU on a quiet machine, or at most 2x bare python.

Not part of the test suite: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELLO = Path(__file__).parents[1] / "examples" / "hello.alien"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# The children read and write bytecode caches, as an installed package does
# (an environment setting PYTHONDONTWRITEBYTECODE would make every run
# compile every module from source: --no-bytecode measures that case).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU and wall-clock seconds of one run of `cmd`."""
    cpu, wall = children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    cpu, wall = children_cpu() - cpu, time.perf_counter() - wall
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stdout}{proc.stderr}")
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=20, help="runs of each (best counts)")
    parser.add_argument(
        "--baseline", metavar="PYTHON", help="also time the run under this interpreter"
    )
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="run the children without bytecode caches (every module compiled at each start)",
    )
    args = parser.parse_args()
    env = {**ENV, "PYTHONDONTWRITEBYTECODE": "1"} if args.no_bytecode else ENV
    if args.no_bytecode:
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp()  # no cache found either
    run = ["-P", "-m", "alienworlds.cli.aliencode", "run", "--world", "standard", str(HELLO)]
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "aliencode run": [sys.executable, *run],
    }
    if args.baseline:
        commands["baseline run"] = [args.baseline, *run]
    best = {name: (float("inf"), float("inf")) for name in commands}
    for _ in range(args.repeat):
        for name, cmd in commands.items():
            cpu, wall = timed(cmd, env)
            best[name] = (min(best[name][0], cpu), min(best[name][1], wall))
    bare = best["python -c pass"][0]
    print(f"{'command':<16} {'CPU s':>7} {'wall s':>7} {'x bare CPU':>10}")
    for name, (cpu, wall) in best.items():
        print(f"{name:<16} {cpu:>7.3f} {wall:>7.3f} {cpu / bare:>10.2f}")


if __name__ == "__main__":
    main()
