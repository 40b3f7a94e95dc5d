"""The AlienLogic battery, adaptive strategies included, on several worlds.

    python benchmarks/alienlogic_adaptive.py [WORLD ...]   # default: main

A WORLD is a shipped name or a generated world's folder or world.toml (its
bank.toml beside it). Prints each strategy's accuracy per world, the
refuse-all floor beside it, and the battery's time; `*` marks a strategy
above refuse-all. Below, per world, which combination of a style and a cut
`prove-else-refuse-best-cut` is, and which of a style and up to two cuts
`prove-else-refuse-best-cuts` is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from alienworlds.tasks.alienlogic_adaptive import Answerer, best_combination, checker, graded
from alienworlds.tasks.alienlogic_grading import logic_tasks
from alienworlds.tasks.alienlogic_validity import battery
from alienworlds.tasks.bank import load_bank

from alienlogic import load_world


def load(spec: str):
    path = Path(spec)
    if path.is_dir():
        path = path / "world.toml"
    world = load_world(str(path) if path.is_file() else spec)
    beside = path.parent / "bank.toml" if path.is_file() else None
    bank = load_bank("alienlogic", world.name, beside)
    return world, bank


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("worlds", nargs="*", default=["main"])
    args = parser.parse_args()
    loaded = {spec: load(spec) for spec in args.worlds}
    answerers = {spec: Answerer() for spec in args.worlds}
    results = {spec: battery(*loaded[spec], answerers[spec]) for spec in args.worlds}
    names = list(next(iter(results.values())).strategies)
    for v in results.values():
        names += [n for n in v.strategies if n not in names]
    print(f"{'strategy':<42}" + "".join(f"{Path(s).name:>16}" for s in args.worlds))
    for name in names:
        cells = []
        for v in results.values():
            score = v.strategies.get(name)
            floor = v.strategies["refuse-all"].accuracy
            mark = "*" if score is not None and score.accuracy > floor else " "
            cells.append("-" if score is None else f"{score.accuracy:.1f}{mark}")
        print(f"{name:<42}" + "".join(f"{c:>16}" for c in cells))
    print(f"{'battery seconds':<42}" + "".join(f"{v.seconds:>16.2f}" for v in results.values()))
    for spec, (world, bank) in loaded.items():
        # the answers are cached already: this grades them again, proving nothing
        tasks = logic_tasks(bank)
        passed, refused = graded(tasks, checker(world), answerers[spec])
        for label, boxes in (("best cut", False), ("best cuts", True)):
            name, ids = best_combination(tasks, passed, refused, boxes)
            print(f"{label} in {Path(spec).name}: {name} {100 * len(ids) / len(tasks):.1f}%")


if __name__ == "__main__":
    main()
