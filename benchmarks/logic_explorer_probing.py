"""The AlienLogic explorer's probing alone, on any world file (no task bank).

    python benchmarks/logic_explorer_probing.py [WORLD ...] [--probes 48] [--seeds 2]

For each world (a shipped name or a path; default: main, demo and the two
variants under benchmarks/worlds/), the explorer and the random-probe
baseline each send `--probes` probes, one at a time, to the world's checker
(no worked proofs: a world file alone has none), and after every 12 it
prints the posterior mass on the world's true patching (averaged over the
22 rules, as report.json's `true_mass`) and how many of the world's patched
rules its most probable hypothesis gets exactly (the believed patches of
the rule, ids aside, have the true patches' values on every pool and
observed step). This shows what the probes learn on worlds that have no
bank, so no accuracy curve.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from alienworlds.explore.alienlogic.agent import ExplorerAgent, RandomProbeAgent  # noqa: E402
from alienworlds.explore.alienlogic.metrics import true_mass, truth_probability  # noqa: E402

from alienlogic import check, load_world  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT = [
    "main",
    "demo",
    str(HERE / "worlds" / "alienlogic_variant_a.toml"),
    str(HERE / "worlds" / "alienlogic_variant_b.toml"),
]


def probe_world(
    agent: ExplorerAgent, world, probes: int
) -> tuple[list[tuple[float, int]], list[float]]:
    found: list[tuple[str, str]] = []
    patched = sorted({r.target for r in world.rules})
    marks, times = [], []
    for made in range(probes + 1):
        space = agent.knowledge.update(found)
        if made % 12 == 0 or made == probes:
            exact = sum(_believed_exactly(space, world, r) for r in patched)
            marks.append((true_mass(space, world), exact))
        if made == probes:
            break
        start = time.process_time()
        choice = agent.choose(space, made)
        times.append(time.process_time() - start)
        if choice is None:
            break
        found.append((choice[0], json.dumps(check(choice[0], world).as_dict())))
    return marks, times


def _believed_exactly(space, world, rule: str) -> bool:
    """The most probable hypothesis of the rule is the true patching's class."""
    best = space.rule(rule).belief()
    truth = truth_probability(space, world, rule)
    return truth > 0 and truth >= best.probability - 1e-12


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("worlds", nargs="*", default=DEFAULT)
    parser.add_argument("--probes", type=int, default=48)
    parser.add_argument("--seeds", type=int, default=2)
    args = parser.parse_args()
    for spec in args.worlds:
        world = load_world(spec)
        patched = len({r.target for r in world.rules})
        print(f"world {world.name}: {len(world.rules)} patches on {patched} rules")
        for cls in (ExplorerAgent, RandomProbeAgent):
            for seed in range(args.seeds):
                marks, times = probe_world(cls(seed=seed), world, args.probes)
                shown = "  ".join(
                    f"{12 * i:2d}: {m:.2f} {e}/{patched}" for i, (m, e) in enumerate(marks)
                )
                print(
                    f"  {cls.name:<16} seed {seed}  true mass, rules exact by probes  {shown}"
                    f"  (median choice {statistics.median(times):.2f} s CPU)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
