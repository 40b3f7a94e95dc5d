"""Generated AlienLogic worlds over several seeds: CPU time by stage, the
share of candidate theorems discarded as unresolved, patches put back.

    python benchmarks/alienlogic_generated_worlds.py [--seeds N] [--prefix P] [--out DIR]
                                                     [--patches N] [--theorems N]
                                                     [--unprovable N] [--first-order N]

Generates (and, with --out, writes and audits) the worlds of seeds P1 ... PN
(default: report-1 ... report-3, the main bank's shape) and prints, per
world and in total, the CPU seconds of each stage and the labels given.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from alienworlds.generate.alienlogic import Knobs, generate, write


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--prefix", default="report-")
    parser.add_argument("--out", type=Path, help="write each world to OUT/<seed> (audited)")
    for knob in ("patches", "theorems", "unprovable", "first_order"):
        parser.add_argument(
            f"--{knob.replace('_', '-')}", dest=knob, type=int, default=getattr(Knobs, knob)
        )
    args = parser.parse_args()
    knobs = Knobs(
        patches=args.patches,
        theorems=args.theorems,
        unprovable=args.unprovable,
        first_order=args.first_order,
    )
    stages: Counter = Counter()
    labelled = unresolved = 0
    for k in range(1, args.seeds + 1):
        seed = f"{args.prefix}{k}"
        start = time.process_time()
        g = generate(seed, knobs)
        if args.out:
            write(g, args.out / seed, force=True, seconds=g.stats.seconds)
        cpu = time.process_time() - start
        stats = g.stats
        stages.update(stats.seconds)
        n = sum(t.drawn - t.labels["skipped"] for t in (stats.final, stats.trials))
        u = stats.final.labels["unresolved"] + stats.trials.labels["unresolved"]
        labelled, unresolved = labelled + n, unresolved + u
        print(
            f"{seed}: {g.name}, {cpu:.1f} CPU s, {stats.attempts} attempt(s); unresolved {u}/{n} "
            f"({100 * u / n:.0f}%); "
            f"patches put back {sum(stats.rejected_patches.values())}; "
            + ", ".join(f"{s} {v:.1f}" for s, v in sorted(stats.seconds.items())),
            flush=True,
        )
    print(
        f"total: unresolved {unresolved}/{labelled} "
        f"({100 * unresolved / max(labelled, 1):.0f}%); CPU s by stage: "
        + ", ".join(f"{s} {v:.1f}" for s, v in sorted(stages.items()))
    )


if __name__ == "__main__":
    main()
