"""How often a bank covers a drawn rule of each kind: coverage.toml, measured again.

    python benchmarks/rule_coverage.py [--seeds 1-16] [--jobs 2] [--flat] [--write]

Generates the world and bank of each seed (default knobs) and counts, by kind
(site and place: generate/aliencode/coverage_prior.py), the rules of the world
kept (covered) and the rules drawn again because no bank task entered them
(uncovered). Rules of worlds rejected whole (too few tasks) are not counted.
`--flat` draws every kind alike, as the drawer did before it had a prior (the
shipped counts were measured so, at generator version 6); without it the
shipped prior decides what is drawn, and kinds it seldom accepts are seldom
counted. Prints each kind's counts, rate and acceptance under the counts
measured, then the CPU time per seed; `--write` also writes the counts to
generate/aliencode/coverage.toml (new counts change what every seed gives: bump
VERSION in generate/aliencode/world_draw.py with them).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from alienworlds.generate.aliencode import generate
from alienworlds.generate.aliencode.coverage_prior import (
    CoveragePrior,
    kind,
    prior_toml,
)

TARGET = Path(__file__).resolve().parents[1] / "generate" / "aliencode" / "coverage.toml"


def seeds_of(text: str) -> list[str]:
    """`1-16` or `a,b,c` (or both, comma-separated) as a list of seeds."""
    out: list[str] = []
    for part in text.split(","):
        first, dash, last = part.partition("-")
        if dash and first.isdigit() and last.isdigit():
            out += [str(n) for n in range(int(first), int(last) + 1)]
        elif part:
            out.append(part)
    return out


def measure(seed: str, flat: bool) -> tuple[str, Counter, Counter, float]:
    """The seed's covered and uncovered kinds, and its CPU seconds."""
    start = time.process_time()
    result = generate(seed, prior=CoveragePrior() if flat else None)
    covered = Counter(kind(rule) for rule in result.world.rules)
    return seed, covered, result.uncovered, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-16", help="e.g. 1-16 or a,b,c")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--flat", action="store_true")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    seeds = seeds_of(args.seeds)
    covered: Counter = Counter()
    uncovered: Counter = Counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(measure, seeds, [args.flat] * len(seeds)))
    for _, c, u, _ in results:
        covered.update(c)
        uncovered.update(u)
    counts = {k: (covered[k], uncovered[k]) for k in covered.keys() | uncovered.keys()}
    prior = CoveragePrior(counts)
    for key in sorted(counts, key=lambda k: -prior.acceptance(*k)):
        c, u = counts[key]
        print(
            f"{key[0]:>14} {key[1]:<17} covered {c:3} uncovered {u:3} "
            f"rate {prior.rate(*key):.3f} acceptance {prior.acceptance(*key):.3f}"
        )
    for seed, _, u, seconds in results:
        print(f"seed {seed}: {seconds:.1f} s, rules no bank task entered: {sum(u.values())}")
    seconds = sum(r[3] for r in results)
    missed = sum(uncovered.values())
    print(f"{len(seeds)} seeds: {seconds:.1f} s, rules no bank task entered: {missed}")
    if args.write:
        TARGET.write_text(prior_toml(counts, args.seeds), encoding="utf-8")
        print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
