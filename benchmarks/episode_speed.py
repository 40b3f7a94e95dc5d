"""A full offline episode on the main AlienCode world (issue 8's goal: 70
tasks × 3 answers × 5 milestones in under 60 s), with each built-in agent.

    python benchmarks/episode_speed.py [--world main] [--keep DIR]

Prints the environment set-up time (the bank audit: each task's rules and
the worked examples' outputs), then per agent the wall time of the whole
episode (trace written and fsynced event by event), the trace's size and
event count, and the milestone curve.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and this
# file's name would shadow the `episode` package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from alienworlds.episode import Episode, Settings, make_agent  # noqa: E402
from alienworlds.episode.aliencode_env import AlienCodeEnvironment  # noqa: E402
from alienworlds.episode.trace import read_trace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="main")
    parser.add_argument("--keep", metavar="DIR", help="keep the traces in DIR")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="episode-bench-"))
    start = time.perf_counter()
    env = AlienCodeEnvironment(args.world)
    setup = time.perf_counter() - start
    print(
        f"world {env.world_name}: {len(env.tasks())} tasks; environment set-up (audit) "
        f"{setup:.2f} s"
    )
    total = setup
    for name in ("oracle", "naive", "fixed"):
        out = root / name
        shutil.rmtree(out, ignore_errors=True)
        t0 = time.perf_counter()
        report = Episode(env, make_agent(name, env), out, Settings()).run()
        seconds = time.perf_counter() - t0
        total += seconds
        trace = out / "trace.jsonl"
        curve = " ".join(f"{m['accuracy']:.1f}" for m in report["milestones"])
        print(
            f"{name:>6}: {seconds:5.2f} s · trace {trace.stat().st_size / 1e6:.2f} MB, "
            f"{len(read_trace(trace))} events · "
            f"M0..M4 {curve} · rules@M4 {report['milestones'][-1]['rule_report_score']}"
        )
    print(f"total {total:.2f} s (set-up plus three episodes)")
    if not args.keep:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
