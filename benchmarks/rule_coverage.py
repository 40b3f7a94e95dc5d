"""How often a bank covers a drawn rule of each kind: coverage.toml, measured again.

    python benchmarks/rule_coverage.py [--seeds 1-16] [--jobs 2] [--flat] [--write]
                                       [--by-expression]

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
VERSION in generate/aliencode/world_draw.py with them). `--by-expression` also
counts each kind's rules by expression (numbers written N) and prints the mean
log loss of predicting each seed's outcomes from the other seeds' counts, by
kind and by kind and expression: whether a prior by perturbation would foresee
uncovered rules better than the prior by kind.
"""

from __future__ import annotations

import argparse
import math
import re
import time
from collections import Counter, defaultdict
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


Outcome = tuple[tuple[str, str], str, bool]  # a rule's kind, its expression, covered


def measure(seed: str, flat: bool) -> tuple[str, list[Outcome], float]:
    """Each rule's outcome in the seed (the kept world's rules covered, the
    rules drawn again not), and the seed's CPU seconds."""
    start = time.process_time()
    result = generate(seed, prior=CoveragePrior() if flat else None)
    outcomes = [(kind(r), _family(r.actual), True) for r in result.world.rules]
    outcomes += [(kind(r), _family(r.actual), False) for r in result.uncovered]
    return seed, outcomes, time.process_time() - start


def _family(actual: str) -> str:
    """A rule expression with its numbers written N: the perturbation drawn."""
    return re.sub(r"-?\d+(\.\d+)?", "N", actual)


def _rate(covered: int, uncovered: int, toward: float, weight: float = 2.0) -> float:
    return (covered + weight * toward) / (covered + uncovered + weight)


def held_out_loss(results: list[tuple[str, list[Outcome], float]], by_expression: bool) -> float:
    """Mean log loss of predicting each seed's outcomes from the other
    seeds': by kind (smoothed toward the rate of every rule), or by kind
    and expression (smoothed toward the kind's rate)."""
    total, n = 0.0, 0
    for k, (_, test, _) in enumerate(results):
        train = [o for j, (_, outs, _) in enumerate(results) if j != k for o in outs]
        overall = sum(c for _, _, c in train) / max(1, len(train))
        kinds: dict = defaultdict(lambda: [0, 0])
        pairs: dict = defaultdict(lambda: [0, 0])
        for kd, family, covered in train:
            kinds[kd][covered] += 1
            pairs[(kd, family)][covered] += 1
        for kd, family, covered in test:
            p = _rate(kinds[kd][1], kinds[kd][0], overall)
            if by_expression:
                p = _rate(pairs[(kd, family)][1], pairs[(kd, family)][0], p)
            p = min(max(p, 1e-3), 1 - 1e-3)
            total -= math.log(p if covered else 1 - p)
            n += 1
    return total / max(1, n)


def by_expression(results: list[tuple[str, list[Outcome], float]]) -> None:
    """Per kind with an uncovered rule, its expressions' counts; then
    whether knowing the expression predicts a held-out seed better."""
    counts: dict = defaultdict(lambda: [0, 0])
    for _, outcomes, _ in results:
        for kd, family, covered in outcomes:
            counts[(kd, family)][covered] += 1
    missed = {kd for (kd, _), (u, _) in counts.items() if u}
    for kd in sorted(missed):
        families = sorted((f, c) for (k, f), c in counts.items() if k == kd)
        shown = "; ".join(f"{f} {c[1]}/{c[0] + c[1]}" for f, c in families)
        print(f"{kd[0]:>14} {kd[1]:<17} covered/drawn by expression: {shown}")
    print(
        f"held-out log loss by kind {held_out_loss(results, False):.4f}, "
        f"by kind and expression {held_out_loss(results, True):.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-16", help="e.g. 1-16 or a,b,c")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--flat", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument(
        "--by-expression",
        action="store_true",
        help="also count by rule expression, and compare the two as predictors on held-out seeds",
    )
    args = parser.parse_args()
    seeds = seeds_of(args.seeds)
    covered: Counter = Counter()
    uncovered: Counter = Counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(measure, seeds, [args.flat] * len(seeds)))
    for _, outcomes, _ in results:
        for kd, _, was_covered in outcomes:
            (covered if was_covered else uncovered)[kd] += 1
    counts = {k: (covered[k], uncovered[k]) for k in covered.keys() | uncovered.keys()}
    prior = CoveragePrior(counts)
    for key in sorted(counts, key=lambda k: -prior.acceptance(*k)):
        c, u = counts[key]
        print(
            f"{key[0]:>14} {key[1]:<17} covered {c:3} uncovered {u:3} "
            f"rate {prior.rate(*key):.3f} acceptance {prior.acceptance(*key):.3f}"
        )
    for seed, outcomes, seconds in results:
        missed = sum(not covered for _, _, covered in outcomes)
        print(f"seed {seed}: {seconds:.1f} s, rules no bank task entered: {missed}")
    if args.by_expression:
        by_expression(results)
    seconds = sum(r[2] for r in results)
    missed = sum(uncovered.values())
    print(f"{len(seeds)} seeds: {seconds:.1f} s, rules no bank task entered: {missed}")
    if args.write:
        TARGET.write_text(prior_toml(counts, args.seeds), encoding="utf-8")
        print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
