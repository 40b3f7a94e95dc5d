"""The AlienLogic explorer on a world, beside its baselines, by probes used.

    python benchmarks/logic_explorer.py [--world main] [--trajectories 3]
        [--agents explorer,explorer-random,explorer-fixed,fixed] [--keep DIR]

Runs each agent for N trajectories (seeds 0..N-1): the explorer (probes by
expected information gain), `explorer-random` (random probes) and
`explorer-fixed` (the seeded fixed-probe sequence), the two baselines with
the explorer's answering, and the scripted `fixed` agent (which reads the
answer key, for reference). A milestone Mt comes after 12t probes, so the
curve M0-M4 is accuracy by probes used (0, 12, 24, 36, 48). It prints per
trajectory the curve with provable accuracy and unprovable recognition, the
probes used, the exploration metrics (bits per probe, redundant rate,
coverage, true-patch mass per milestone, errors), then per agent Best@N and
Mean@N at M4 and the CPU time of its decisions (median and largest, for
probes and for answers; CPU time of this process, so a busy machine slows it
less than the wall clock).
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
            # later passes of an answer are served from the agent's cache: apart, so the median says
            # so
            kind = request.purpose
            if kind == "answer":
                kind = "answer, first pass" if request.answer_pass == 1 else "answer, later passes"
            times.setdefault(kind, []).append(time.process_time() - start)

    agent.respond = wrapped
    return agent


def summary(name: str, report: dict) -> str:
    curve = " ".join(f"{m['accuracy']:5.1f}" for m in report["milestones"])
    x = report["exploration"]
    bits = [p["bits"] for p in x["probes"]]
    mass = " ".join(f"{v:.2f}" for v in (x["true_mass"] or {}).values())
    return (
        f"{name:<20} {curve}  prov {report['provable_accuracy']:5.1f} unprov "
        f"{report['unprovable_recognition']:5.1f}"
        f"  probes {len(bits):2d} units {report['milestones'][-1]['budget']['units']:2d} "
        f"bits/probe {statistics.mean(bits) if bits else 0:5.2f}"
        f" redundant {x['redundant_rate'] if x['redundant_rate'] is not None else '-'}"
        f" coverage {x['coverage'][-1]['covered']}/{x['coverage'][-1]['of']}"
        f" true mass {mass} errors {x['errors']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="main")
    parser.add_argument("--bank", default=None)
    parser.add_argument("--trajectories", type=int, default=3)
    parser.add_argument("--agents", default="explorer,explorer-random,explorer-fixed,fixed")
    parser.add_argument("--keep", metavar="DIR", help="keep the traces in DIR")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="explorer-bench-"))
    env = AlienLogicEnvironment(args.world, bank_path=args.bank)
    print(f"world {env.world_name}: {len(env.tasks())} tasks; floor {env.floor}")
    print(
        f"{'agent':<20} {'M0':>5} {'M1':>5} {'M2':>5} {'M3':>5} {'M4':>5}   (probes used: 0 12 "
        "24 36 48)"
    )
    for name in args.agents.split(","):
        times: dict[str, list[float]] = {}
        ends = []
        for seed in range(args.trajectories):
            agent = timed(make_agent(name, env, seed=seed), times)
            start = time.process_time()
            report = Episode(env, agent, root / f"{name}-t{seed + 1}", Settings(seed=seed)).run()
            ends.append(report["endpoint"])
            print(
                summary(f"{name} t{seed + 1}", report)
                + f"  ({time.process_time() - start:.0f} s CPU)",
                flush=True,
            )
        print(
            f"{name}: Best@{len(ends)} {max(ends):.1f} · Mean@{len(ends)} "
            f"{statistics.mean(ends):.1f}"
        )
        for purpose, values in sorted(times.items()):
            print(
                f"{name} decisions ({purpose}): {len(values)}, median "
                f"{statistics.median(values):.3f} s CPU, "
                f"largest {max(values):.3f} s",
                flush=True,
            )
    print(f"traces in {root}")


if __name__ == "__main__":
    main()
