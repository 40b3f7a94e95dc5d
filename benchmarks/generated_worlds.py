"""Generated worlds over many seeds: time, rejections and rule families.

    python benchmarks/generated_worlds.py [--seeds N] [--altered N] [--red-herrings N] [--scoped N]

Generates worlds for seeds 0..N-1 (default 100, main-like knobs) and prints
the CPU time per world, how often a draw was rejected (and why), and how
the rule families are distributed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from alienworlds.generate import Knobs, generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--altered", type=int, default=Knobs.altered)
    parser.add_argument("--red-herrings", type=int, default=Knobs.red_herrings)
    parser.add_argument("--scoped", type=int, default=Knobs.scoped)
    args = parser.parse_args()
    knobs = Knobs(altered=args.altered, red_herrings=args.red_herrings, scoped=args.scoped)
    families: Counter = Counter()
    rejected: Counter = Counter()
    sites: Counter = Counter()
    draws = 0
    times = []
    for seed in range(args.seeds):
        start = time.process_time()
        result = generate(str(seed), knobs)
        times.append(time.process_time() - start)
        families.update(result.families)
        rejected.update(result.rejected)
        sites.update(r.target for r in result.world.rules if not r.red_herring)
        draws += result.draws
    n = args.seeds
    print(f"{n} worlds ({knobs}): CPU s per world median {statistics.median(times):.2f}, "
          f"mean {statistics.mean(times):.2f}, max {max(times):.2f}")
    total_rejected = sum(rejected.values())
    print(f"draws {draws}, rejected {total_rejected} ({100 * total_rejected / draws:.1f}%): "
          + ", ".join(f"{k} {v}" for k, v in rejected.most_common()))
    print("families (rules over all worlds, per world):")
    for family, count in families.most_common():
        print(f"  {family:<18} {count:>5}  {count / n:5.2f}")
    print("altered sites: " + ", ".join(f"{k} {v}" for k, v in sites.most_common()))


if __name__ == "__main__":
    main()
