"""The AlienLogic explorer on a world, beside the fixed-probe agent.

    python benchmarks/logic_explorer.py [--world main] [--trajectories 3] [--keep DIR]

Runs `--agent explorer` for N trajectories (seeds 0..N-1) and the `fixed`
agent for one, then prints per trajectory the curve M0-M4 with provable
accuracy and unprovable recognition, Best@N and Mean@N at M4, the probes
used, the CPU time of the explorer's decisions (median and largest, for
probes and for answers; CPU time of this process, so a busy machine slows it
less than the wall clock), and each agent's exploration metrics side by side.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from alienworlds.episode import Episode, Settings, make_agent  # noqa: E402
from alienworlds.episode.alienlogic_env import AlienLogicEnvironment  # noqa: E402


def timed(agent, times: dict[str, list[float]]):
    respond = agent.respond

    def wrapped(request):
        start = time.process_time()
        try:
            return respond(request)
        finally:
            times.setdefault(request.purpose, []).append(time.process_time() - start)

    agent.respond = wrapped
    return agent


def summary(name: str, report: dict) -> str:
    curve = " ".join(f"{m['accuracy']:5.1f}" for m in report["milestones"])
    x = report["exploration"]
    bits = [p["bits"] for p in x["probes"]]
    mass = " ".join(f"{v:.2f}" for v in (x["true_mass"] or {}).values())
    return (f"{name:<12} {curve}  prov {report['provable_accuracy']:5.1f} unprov {report['unprovable_recognition']:5.1f}"
            f"  probes {len(bits):2d} bits/probe {statistics.mean(bits) if bits else 0:5.2f}"
            f" redundant {x['redundant_rate'] if x['redundant_rate'] is not None else '-'}"
            f" coverage {x['coverage'][-1]['covered']}/{x['coverage'][-1]['of']}"
            f" true mass {mass} errors {x['errors']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="main")
    parser.add_argument("--bank", default=None)
    parser.add_argument("--trajectories", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="keep the traces in DIR")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="explorer-bench-"))
    env = AlienLogicEnvironment(args.world, bank_path=args.bank)
    print(f"world {env.world_name}: {len(env.tasks())} tasks; floor {env.floor}")
    print(f"{'agent':<12} {'M0':>5} {'M1':>5} {'M2':>5} {'M3':>5} {'M4':>5}")
    times: dict[str, list[float]] = {}
    ends = []
    for seed in range(args.trajectories):
        agent = timed(make_agent("explorer", env, seed=seed), times)
        start = time.process_time()
        report = Episode(env, agent, root / f"explorer-t{seed + 1}", Settings(seed=seed)).run()
        ends.append(report["endpoint"])
        print(summary(f"explorer t{seed + 1}", report) + f"  ({time.process_time() - start:.0f} s CPU)")
    fixed = Episode(env, make_agent("fixed", env), root / "fixed", Settings()).run()
    print(summary("fixed", fixed))
    print(f"explorer Best@{len(ends)} {max(ends):.1f} · Mean@{len(ends)} {statistics.mean(ends):.1f}")
    for purpose, values in sorted(times.items()):
        print(f"explorer decisions ({purpose}): {len(values)}, median {statistics.median(values):.3f} s CPU, "
              f"largest {max(values):.3f} s")
    print(f"traces in {root}")


if __name__ == "__main__":
    main()
