"""The AlienCode interpreter against plain CPython on three workloads
(loops, recursion, lists and strings), side by side in one run.

Each workload exists twice under benchmarks/workloads/: NAME.alien and
NAME.py (the same algorithm in Python). Every measurement runs in a fresh
child process, which reports its own CPU time (user + system) for the work
alone: CPython compiling and running NAME.py, AlienCode parsing, compiling
and running NAME.alien (the whole of `run_source`, with a step budget large
enough for the workload). Start-up of the interpreter process is left out
here; benchmarks/startup.py measures it. Runs of both sides alternate and
the best of --repeat counts, so a busy machine inflates neither side more.

    python benchmarks/interpreter.py [--repeat 5] [--world W] [--baseline PYTHON]

--baseline runs the AlienCode side a second time under another
interpreter (the python of another checkout's virtual environment, for
instance the code before a change), in the same run, and prints its ratio
in a column of its own. The outputs of all sides must agree.

Not part of the test suite: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent / "workloads"
WORKLOADS = ("loop", "recursive", "lists")

# The child programs: each prints {"seconds": CPU time of the work, "output": ...}.
PYTHON_CHILD = """
import contextlib, io, json, sys, time
source = open(sys.argv[1], encoding="utf-8").read()
out = io.StringIO()
start = time.process_time()
with contextlib.redirect_stdout(out):
    exec(compile(source, sys.argv[1], "exec"), {"__name__": "__main__"})
seconds = time.process_time() - start
print(json.dumps({"seconds": seconds, "output": out.getvalue().strip()}))
"""

ALIEN_CHILD = """
import json, sys, time
from aliencode import run_source
from aliencode.world_schema import load
from alienworlds.ruleset import Limits
source = open(sys.argv[1], encoding="utf-8").read()
world = load(sys.argv[2])
limits = Limits(max_steps=10**12, wall_seconds=10**6)
start = time.process_time()
result = run_source(source, world, limits)
seconds = time.process_time() - start
print(json.dumps({"seconds": seconds, "output": result.text(), "steps": result.steps}))
"""


def measure(python: str, child: str, *args: str) -> dict[str, object]:
    # -P: the child imports the interpreter's own checkout, not the current
    # directory's (a baseline is another checkout)
    cmd = [python, "-P", "-c", child, *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{python} {' '.join(args)} failed: {proc.stdout}{proc.stderr}")
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side (best counts)")
    parser.add_argument("--world", default="standard", help="world to run the AlienCode side in")
    parser.add_argument(
        "--baseline",
        metavar="PYTHON",
        help="also run the AlienCode side under this interpreter (another checkout)",
    )
    parser.add_argument("--only", choices=WORKLOADS, action="append", help="run these workloads")
    args = parser.parse_args()
    sides = {"CPython": (sys.executable, PYTHON_CHILD), "AlienCode": (sys.executable, ALIEN_CHILD)}
    if args.baseline:
        sides["baseline"] = (args.baseline, ALIEN_CHILD)
    head = f"{'workload':<10} {'CPython s':>10} {'AlienCode s':>12} {'ratio':>6}"
    if args.baseline:
        head += f" {'baseline s':>11} {'ratio':>6}"
    print(head + f" {'steps':>11}")
    for name in args.only or WORKLOADS:
        best: dict[str, float] = {}
        outputs: dict[str, str] = {}
        steps: dict[str, object] = {}
        for _ in range(args.repeat):
            for side, (python, child) in sides.items():
                ext = "py" if side == "CPython" else "alien"
                extra = () if side == "CPython" else (args.world,)
                found = measure(python, child, str(HERE / f"{name}.{ext}"), *extra)
                best[side] = min(best.get(side, float("inf")), found["seconds"])
                outputs[side] = found["output"]
                steps[side] = found.get("steps")
        if args.world == "standard" and len(set(outputs.values())) != 1:
            raise SystemExit(f"{name}: outputs differ: {outputs}")
        if args.baseline and steps["AlienCode"] != steps["baseline"]:
            raise SystemExit(f"{name}: step counts differ: {steps}")
        py = best["CPython"]
        line = f"{name:<10} {py:>10.3f} {best['AlienCode']:>12.3f} {best['AlienCode'] / py:>6.2f}"
        if args.baseline:
            line += f" {best['baseline']:>11.3f} {best['baseline'] / py:>6.2f}"
        print(line + f" {steps['AlienCode']:>11}", flush=True)


if __name__ == "__main__":
    main()
