"""The explorer against random and fixed probes: curves, spend, decision time
and exploration metrics side by side.

    python benchmarks/explorer.py [--world W] [--bank PATH] [--trajectories N]
                                  [--agents explorer,explorer-random,explorer-fixed,fixed]
                                  [--keep DIR]

Runs full offline episodes (autonomous condition) of each agent on one world,
N trajectories each (seeds 0..N-1), and prints per agent:

* the Best@N curve M0..M4 (the curve of the trajectory with the highest
  endpoint, lowest seed on a tie) and the Mean@N curve;
* the calls and probe units spent (mean over trajectories);
* for the explorer agents, the median CPU seconds per probe decision (the
  agent's own `process_time` around each choice);
* the exploration section of each trace (explore/aliencode/metrics.py):
  bits per probe, redundant-probe rate, rules reached after each round,
  true-rule mass at each milestone, exploration and exploitation errors.

`explorer-random` and `explorer-fixed` answer like the explorer (the same
engine and porting); only their probes differ. `fixed` is the scripted
fixed-probe agent, which submits the reference answers once a probe reaches
a task's rules: a reference line, not an explorer.

A world given as a path is graded against the bank beside it (`bank.toml`
in the world file's folder, as `aliencode world generate` writes it) unless
`--bank` names another.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and would shadow packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from alienworlds.episode import Episode, Settings, make_agent  # noqa: E402
from alienworlds.episode.environment_loader import make_environment  # noqa: E402


def _curve(report: dict) -> list[float]:
    return [m["accuracy"] for m in report["milestones"]]


def _fmt(values: list[float | None], digits: int = 1) -> str:
    return " ".join("–" if v is None else f"{v:.{digits}f}" for v in values)


def run_agent(env, name: str, trajectories: int, root: Path) -> dict:
    reports, decisions, seconds = [], [], []
    for seed in range(trajectories):
        out = root / name / f"t{seed + 1}"
        shutil.rmtree(out, ignore_errors=True)
        agent = make_agent(name, env, seed=seed)
        started = time.perf_counter()
        reports.append(Episode(env, agent, out, Settings(seed=seed)).run())
        seconds.append(time.perf_counter() - started)
        decisions += getattr(agent, "decisions", [])
    return {"reports": reports, "decisions": decisions, "seconds": seconds}


def summary(name: str, result: dict) -> list[str]:
    reports = result["reports"]
    curves = [_curve(r) for r in reports]
    best = max(range(len(curves)), key=lambda i: (curves[i][-1], -i))
    mean = [statistics.mean(c[k] for c in curves) for k in range(len(curves[0]))]
    calls = statistics.mean(r["milestones"][-1]["budget"]["calls"] for r in reports)
    units = statistics.mean(r["milestones"][-1]["budget"]["units"] for r in reports)
    rules = [
        f"{r['milestones'][-1]['rule_report_score']}/{r['milestones'][-1]['rule_report_of']}"
        for r in reports
    ]
    lines = [
        f"== {name} ({len(reports)} trajectories, wall {sum(result['seconds']):.0f} s on a "
        "shared machine)",
        f"  Best@{len(reports)} M0..M4: {_fmt(curves[best])}   (seed {best})",
        f"  Mean@{len(reports)} M0..M4: {_fmt(mean)}",
        "  per trajectory: " + " | ".join(_fmt(c) for c in curves),
        f"  rules stated correctly at M4: {', '.join(rules)}",
        f"  calls {calls:.1f} · probe units {units:.1f} (mean per trajectory)",
    ]
    if result["decisions"]:
        d = result["decisions"]
        lines.append(
            f"  decision CPU seconds: median {statistics.median(d):.3f}, max {max(d):.3f} over "
            f"{len(d)} decisions"
        )
    for k, r in enumerate(reports):
        e = r.get("exploration")
        if not e:
            lines.append(f"  t{k + 1}: no exploration section")
            continue
        probes = e["probes"]
        bits = sum(p.get("bits") or 0.0 for p in probes)
        err = e["errors"]
        lines.append(
            f"  t{k + 1} exploration: {len(probes)} probes, {bits:.1f} bits "
            f"({bits / max(1, len(probes)):.2f}/probe), "
            f"redundant rate {e['redundant_rate']}, reached "
            + " ".join(f"R{c['round']}:{c['covered']}/{c['of']}" for c in e["coverage"])
            + ", true mass "
            + " ".join(f"{m}:{v:.3f}" for m, v in e["true_mass"].items())
            + f", exploration errors {err['exploration']}/{err.get('exploration_required')}"
            + f", exploitation errors {err['exploitation']}/{err.get('exploitation_required')}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--world", default=None, help="a shipped world's name or a world TOML path (default main)"
    )
    parser.add_argument(
        "--bank",
        default=None,
        help="the task bank (default: the world's own, bank.toml beside a world file)",
    )
    parser.add_argument("--trajectories", type=int, default=3)
    parser.add_argument("--agents", default="explorer,explorer-random,explorer-fixed")
    parser.add_argument("--keep", metavar="DIR", help="keep the traces in DIR")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="explorer-bench-"))
    env = make_environment("aliencode", args.world, args.bank)
    print(
        f"world {env.world_name}: {len(env.tasks())} tasks; {args.trajectories} trajectories per "
        "agent",
        flush=True,
    )
    for name in [a.strip() for a in args.agents.split(",") if a.strip()]:
        print("\n".join(summary(name, run_agent(env, name, args.trajectories, root))), flush=True)
    if not args.keep:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
