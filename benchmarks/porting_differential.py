"""Differential test of the porting compiler: ported programs against the
manual, in main and in freshly generated worlds.

    python benchmarks/porting_differential.py [--worlds 6] [--programs 6000] [--seed 0]
                                              [--budget 20000]

Draws `--worlds` worlds with the generator's default knobs (seeds
`differential-<seed>-<k>`, as `aliencode world generate --seed` would draw
their rules), makes `--programs` random and targeted manual-semantics
programs (porting.differential), keeps those that run to the end under the
manual, and ports each to every world (main included). Prints, per world
and in total, the pairs tried, ported, refused and the disagreements (a
ported program that fails or prints something else); the first few
disagreements in full. Exit 1 when there is any disagreement.

`--budget` bounds the candidates one search builds (the porter's default
is 400,000); every template is accepted by the same checks whatever the
budget, so a smaller one only refuses more. Times are CPU seconds.
"""

from __future__ import annotations

import argparse
import sys
import time

from alienworlds.generate.aliencode import Knobs
from alienworlds.generate.aliencode.world_draw import draw_world
from alienworlds.porting import Bounds, Porter
from alienworlds.porting.differential import Tally, differential, programs, runnable

from aliencode.world_schema import load


def show(found: tuple[str, str, str, str, str]) -> None:
    name, source, ported, want, got = found
    print(
        f"--- {name}\n{source}--- ported\n{ported}--- manual prints\n{want}--- port prints\n{got}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, default=6, help="generated worlds besides main")
    parser.add_argument(
        "--programs",
        type=int,
        default=6000,
        help="programs made (those failing under the manual are dropped)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--budget", type=int, default=20_000, help="candidates one search may build"
    )
    parser.add_argument(
        "--only",
        type=int,
        nargs="*",
        default=None,
        help="run only these of the worlds (0 is main, k the k-th generated), to split a run "
        "between processes",
    )
    args = parser.parse_args(argv)
    start = time.process_time()
    cases = runnable(programs(args.seed, args.programs))
    print(
        f"{len(cases)} of {args.programs} programs run under the manual "
        f"({time.process_time() - start:.1f} s)",
        flush=True,
    )
    chosen = (
        range(args.worlds + 1)
        if args.only is None
        else [k for k in args.only if 0 <= k <= args.worlds]
    )
    worlds = [
        load("main") if k == 0 else draw_world(f"differential-{args.seed}-{k - 1}", Knobs()).world
        for k in chosen
    ]
    total = Tally()
    for world in worlds:
        began = time.process_time()
        shown: list[object] = []

        def progress(
            tally: Tally, name: str = world.name, began: float = began, shown: list[object] = shown
        ) -> None:
            print(
                f"  {name} so far: tried {tally.tried}, ported {tally.ported}, refused "
                f"{tally.refused}, "
                f"disagreements {len(tally.disagreements)} ({time.process_time() - began:.1f} s)",
                flush=True,
            )
            for found in tally.disagreements[len(shown) : 3]:
                shown.append(found)
                show(found)

        tally = differential(
            world, cases, Porter(world, Bounds(budget=args.budget)), progress, every=100
        )
        total.add(tally)
        print(
            f"{world.name}: tried {tally.tried}, ported {tally.ported}, refused {tally.refused}, "
            f"disagreements {len(tally.disagreements)} ({time.process_time() - began:.1f} s)",
            flush=True,
        )
    print(
        f"total over {len(worlds)} worlds: tried {total.tried}, ported {total.ported}, refused "
        f"{total.refused}, "
        f"disagreements {len(total.disagreements)} ({time.process_time() - start:.1f} s CPU)"
    )
    return 1 if total.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
