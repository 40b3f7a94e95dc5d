"""Generated worlds over many seeds: time, rejections and rule families.

    python benchmarks/generated_worlds.py [--seeds N] [--first K] [--altered N]
                                          [--red-herrings N] [--scoped N] [--renamed N]
                                          [--tasks N] [--world-only] [--audit]

Generates the world and bank of seeds K..K+N-1 (default 0..99, main-like
knobs) and prints the CPU time per seed, how often a rule draw was rejected
(and why), how often a world was tried again (one rule drawn again, or a
whole new world) because no bank could be made for it, why templates made
no task, and how the rule families of the kept worlds are distributed.
`--world-only` draws the first world of each seed and no bank (the rule
draws alone, much faster); `--audit` also runs the full audit (validity
battery included) on every world and bank and counts the failures, in the
same process and with the answers and verdicts the generation kept, as
`aliencode world generate` does.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from contextlib import ExitStack

from alienworlds.cli.entry import tune_collector
from alienworlds.generate.aliencode import Knobs, generate
from alienworlds.generate.aliencode.world_draw import draw_world
from alienworlds.tasks.aliencode_audit import audit
from alienworlds.tasks.aliencode_verdict_memo import VERDICTS

from aliencode.cache_room import roomy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    for knob in ("altered", "red-herrings", "scoped", "renamed", "tasks"):
        parser.add_argument(f"--{knob}", type=int, default=getattr(Knobs, knob.replace("-", "_")))
    parser.add_argument("--world-only", action="store_true")
    parser.add_argument("--audit", action="store_true")
    args = parser.parse_args()
    tune_collector()  # the cycle collector as the commands run it
    knobs = Knobs(
        altered=args.altered,
        red_herrings=args.red_herrings,
        scoped=args.scoped,
        renamed=args.renamed,
        tasks=args.tasks,
    )
    families: Counter = Counter()
    rejected: Counter = Counter()
    worlds_rejected: Counter = Counter()
    discarded: Counter = Counter()
    sites: Counter = Counter()
    draws = world_draws = tried = audit_failures = redrawn = 0
    times, audit_times, both = [], [], []
    for seed in range(args.first, args.first + args.seeds):
        job = ExitStack()
        if args.audit and not args.world_only:
            # as `aliencode world generate` runs: the audit finds the answers and
            # verdicts the generation kept
            job.enter_context(roomy())
            job.enter_context(VERDICTS.kept())
        with job:
            start = time.process_time()
            result = draw_world(str(seed), knobs) if args.world_only else generate(str(seed), knobs)
            times.append(time.process_time() - start)
            families.update(result.by_scheme)
            rejected.update(result.rejected)
            sites.update(r.target for r in result.world.rules if not r.red_herring)
            draws += result.draws
            if not args.world_only:
                world_draws += result.world_draws
                worlds_rejected.update(result.worlds_rejected)
                tried += result.templates_tried
                discarded.update(result.templates_discarded)
            line = f"seed {seed}: {times[-1]:.1f} s"
            if not args.world_only:
                redrawn += result.rules_redrawn
                line += (
                    f", {result.world_draws} world(s) tried, "
                    f"{result.rules_redrawn} by drawing a rule again"
                )
            if args.audit and not args.world_only:
                start = time.process_time()
                report = audit(result.world, result.bank)
                audit_times.append(time.process_time() - start)
                both.append(times[-1] + audit_times[-1])
                line += f"; audit {audit_times[-1]:.1f} s; both {both[-1]:.1f} s"
                ok = (
                    not report.problems
                    and report.reference_pass == len(result.bank.tasks)
                    and report.validity is not None
                    and not report.validity.flagged
                )
                audit_failures += not ok
            print(line, flush=True)
    n = args.seeds
    what = "worlds (first draw, no bank)" if args.world_only else "worlds and banks"
    print(
        f"{n} {what} ({knobs}): CPU s per seed median {statistics.median(times):.2f}, "
        f"mean {statistics.mean(times):.2f}, max {max(times):.2f}"
    )
    if audit_times:
        print(
            f"audit: CPU s per seed median {statistics.median(audit_times):.2f}, max "
            f"{max(audit_times):.2f}; "
            f"{audit_failures} of {n} failed"
        )
        print(
            f"generation and audit: CPU s per seed median {statistics.median(both):.2f}, max "
            f"{max(both):.2f}; "
            f"{sum(t < 30 for t in both)} of {n} under 30 s"
        )
    total_rejected = sum(rejected.values())
    print(
        f"rule draws {draws}, rejected {total_rejected} ({100 * total_rejected / draws:.1f}%): "
        + ", ".join(f"{k} {v}" for k, v in rejected.most_common())
    )
    if not args.world_only:
        again = world_draws - n
        print(
            f"worlds tried {world_draws} for {n} seeds, {again} without a bank "
            f"({100 * again / world_draws:.1f}%): "
            + ", ".join(f"{k} {v}" for k, v in worlds_rejected.most_common())
            + f"; {redrawn} of them changed by drawing one rule again, the others drawn anew"
        )
        print(
            f"templates tried {tried} ({tried / n:.1f} per seed), made no task "
            f"{sum(discarded.values())}: "
            + ", ".join(f"{k} {v}" for k, v in discarded.most_common())
        )
    print("families (rules over all worlds, per world):")
    for family, count in families.most_common():
        print(f"  {family:<18} {count:>5}  {count / n:5.2f}")
    print("altered sites: " + ", ".join(f"{k} {v}" for k, v in sites.most_common()))


if __name__ == "__main__":
    main()
