"""Loops whose body changes the list they walk, ported to worlds that change SWEEP.

    python benchmarks/walk_changes.py [--per-route 40] [--seed 0]

Makes `--per-route` programs for each way a SWEEP's body can reach the list
it walks (porting.differential.WALK_ROUTES), keeps those that run to the
end under the manual, and ports each to `main` (which changes SWEEP in
CRAFT bodies) and to a world whose SWEEP walks a copy. Prints, per world
and route, the programs tried, ported, refused and the disagreements (a
port that prints something else). Exit 1 on any disagreement, or when a
program of a route that never changes the walked list is refused.

Then, as "fresh list?", ten times as many loops changing a list made before
them, where moves drawn before, in and after the loop decide whether that
list reaches the walked one (porting.differential.fresh_list_program).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from alienworlds.porting import Bounds, Porter
from alienworlds.porting.differential import (
    WALK_ROUTES,
    copying_world,
    differential,
    fresh_list_program,
    runnable,
    walk_changing_program,
)

from aliencode.world_schema import load


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-route", type=int, default=40, help="programs made per route")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.process_time()
    rng = random.Random(args.seed)
    routes = sorted(WALK_ROUTES)
    made: dict[str, list[str]] = {r: [] for r in routes}
    for k in range(args.per_route * len(routes)):
        route = routes[k % len(routes)]
        made[route].append(walk_changing_program(rng, route))
    made["fresh list?"] = [fresh_list_program(rng) for _ in range(args.per_route * 10)]
    cases = {r: runnable(sources) for r, sources in made.items()}
    wrong = refused_safe = 0
    for world in (load("main"), copying_world()):
        porter = Porter(world, Bounds(budget=20_000))
        for route in made:
            tally = differential(world, cases[route], porter)
            safe = route in WALK_ROUTES and not WALK_ROUTES[route].changes_walked
            print(
                f"{world.name:8} {route:15} tried {tally.tried:3}, ported {tally.ported:3}, "
                f"refused {tally.refused:3}, disagreements {len(tally.disagreements)}"
                + ("  (never changes the walked list)" if safe else ""),
                flush=True,
            )
            for _, source, ported, want, got in tally.disagreements[:1]:
                print(f"--- {source}--- ported\n{ported}--- manual\n{want}\n--- port\n{got}")
            wrong += len(tally.disagreements)
            refused_safe += tally.refused if safe else 0
    print(
        f"disagreements {wrong}, refusals of loops that never change the walked list "
        f"{refused_safe} ({time.process_time() - start:.1f} s CPU)"
    )
    return 1 if wrong or refused_safe else 0


if __name__ == "__main__":
    sys.exit(main())
