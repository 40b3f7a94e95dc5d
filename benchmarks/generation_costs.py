"""Where an AlienCode world's generation spends its CPU time, seed by seed.

    python benchmarks/generation_costs.py SEED [SEED ...] [--jobs N] [--json FILE]

Generates each seed's world and bank with the default knobs, as `aliencode
world generate` does but without its audit, and splits the CPU time
(`time.process_time`) into:

* `portability`: checking, rule by rule, that a drawn world's altered sites
  stay portable (the porter ports probe programs using each), split into the
  rules kept (`portable`) and those turned away as not portable
  (`not portable`);
* in the world whose bank is written: `kept tasks`, making them (drawing
  inputs, porting the reference) and running the battery on them;
  `flagged tasks`, the same for tasks a stage of the battery passed; and
  `no task`, making what came to nothing before the battery (unportable,
  no unavoidable rule, ...);
* `rejected worlds`: everything made and judged for the worlds whose bank
  could not be drawn;
* `rest`: the remainder (drawing rules, porting worked examples, asking
  which rules enter a task, writing the bank).

The split comes from timing the generator's own steps from outside (the
draft of each template, its battery verdict, each portability check); the
files generated are the same as without it. Each seed runs in a process of
its own (`--jobs` at once). CPU time varies with the machine and its load:
compare runs made at the same time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

from alienworlds.cli.entry import tune_collector
from alienworlds.generate.aliencode import (
    Generated,
    GenerationError,
    Knobs,
    generate,
    instances,
    world_draw,
)
from alienworlds.generate.aliencode import bank as bank_draw
from alienworlds.generate.knobs import seed_problem

CATEGORIES = (
    "kept tasks: making",
    "kept tasks: battery",
    "flagged tasks: making",
    "flagged tasks: battery",
    "no task: making",
    "rejected worlds",
    "portability: portable",
    "portability: not portable",
    "rest",
)


@dataclass
class Template:
    """One template tried: its id, the bank draw it was tried in (1, 2, ...),
    the CPU seconds making it and judging it, and how it ended."""

    id: str
    draw: int
    making: float
    battery: float = 0.0
    outcome: str = ""


@dataclass
class Costs:
    seed: str
    total: float = 0.0
    world_draws: int = 0
    templates: list[Template] = field(default_factory=list)
    portability: Counter = field(default_factory=Counter)

    def split(self) -> dict[str, float]:
        """CPU seconds by category (CATEGORIES), summing to `total`."""
        out = dict.fromkeys(CATEGORIES, 0.0)
        for t in self.templates:
            if t.draw < self.world_draws:
                out["rejected worlds"] += t.making + t.battery
            elif t.outcome == "kept":
                out["kept tasks: making"] += t.making
                out["kept tasks: battery"] += t.battery
            elif t.outcome == "flagged" and t.battery:
                out["flagged tasks: making"] += t.making
                out["flagged tasks: battery"] += t.battery
            else:
                out["no task: making"] += t.making + t.battery
        out["portability: portable"] = self.portability[True]
        out["portability: not portable"] = self.portability[False]
        out["rest"] = self.total - sum(out.values())
        return out


@contextmanager
def timed(costs: Costs) -> Iterator[None]:
    """Time the generator's steps into `costs` while the block runs."""
    draft, verdict = instances.Instantiation.draft, instances.Drafted.verdict
    portable, drawer = world_draw.Drawer._portable, bank_draw._Drawer.__init__
    draws = [0]

    def new_draw(self, *args, **kwargs) -> None:
        draws[0] += 1
        drawer(self, *args, **kwargs)

    def timed_draft(self, template, worked_outputs):
        start = time.process_time()
        made = draft(self, template, worked_outputs)
        record = Template(template.id, draws[0], time.process_time() - start)
        record.outcome = made if isinstance(made, str) else "made"
        costs.templates.append(record)
        if not isinstance(made, str):
            made.cost = record  # read when its verdict is first asked for
        return made

    def timed_verdict(self):
        if self.judged is not None:
            return verdict(self)
        start = time.process_time()
        found = verdict(self)
        record = self.cost
        record.battery = time.process_time() - start
        record.outcome = found if isinstance(found, str) else "kept"
        return found

    def timed_portable(self, candidate, target):
        start = time.process_time()
        ok = portable(self, candidate, target)
        costs.portability[ok] += time.process_time() - start
        return ok

    bank_draw._Drawer.__init__ = new_draw
    instances.Instantiation.draft = timed_draft
    instances.Drafted.verdict = timed_verdict
    world_draw.Drawer._portable = timed_portable
    try:
        yield
    finally:
        bank_draw._Drawer.__init__ = drawer
        instances.Instantiation.draft = draft
        instances.Drafted.verdict = verdict
        world_draw.Drawer._portable = portable


def measure(seed: str, knobs: Knobs | None = None) -> tuple[Costs, Generated]:
    """The costs of generating `seed` (default knobs unless given), and what it generated."""
    costs = Costs(seed)
    with timed(costs):
        start = time.process_time()
        generated = generate(seed, knobs)
        costs.total = time.process_time() - start
    costs.world_draws = generated.world_draws
    return costs, generated


def row(seed: str) -> dict[str, object]:
    """One seed's costs as a table row, measured in a process of its own."""
    tune_collector()  # the cycle collector as the commands run it
    try:
        costs, _ = measure(seed)
    except GenerationError as exc:
        return {"seed": seed, "error": str(exc)}
    return {
        "seed": seed,
        "total": costs.total,
        "worlds": costs.world_draws,
        **costs.split(),
        "templates": [asdict(t) for t in costs.templates],
    }


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", nargs="+", metavar="SEED")
    parser.add_argument(
        "--jobs", type=_positive, default=1, help="seeds measured at once (default 1)"
    )
    parser.add_argument(
        "--json",
        type=argparse.FileType("w"),  # opened first: a path it cannot write fails at once
        metavar="FILE",
        help="also write every seed's split, and every template tried, as JSON",
    )
    args = parser.parse_args()
    for seed in args.seeds:
        problem = seed_problem(seed)
        if problem is not None:
            parser.error(problem)
    print("seed", "total", "worlds", *CATEGORIES, sep="\t")
    rows = []
    # a fresh process per seed, as the command runs: caches and a heap grown by
    # earlier seeds would slow the later ones
    with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=1) as pool:
        for found in pool.imap(row, args.seeds):
            if "error" in found:
                print(found["seed"], f"no world: {found['error']}", sep="\t", flush=True)
                continue
            rows.append(found)
            _line(found["seed"], found, found["worlds"])
    if args.json:
        json.dump(rows, args.json, indent=1)
        args.json.close()
    if rows:
        totals = {c: sum(r[c] for r in rows) for c in ("total", *CATEGORIES)}
        _line("all", totals, sum(r["worlds"] for r in rows))
        shares = (f"{100 * totals[c] / totals['total']:.0f}%" for c in CATEGORIES)
        print("share", "", "", *shares, sep="\t")


def _line(label: str, seconds: dict[str, float], worlds: int) -> None:
    """One line of the table: CPU seconds in all and by category."""
    shown = (f"{seconds[c]:.1f}" for c in ("total", *CATEGORIES))
    print(label, next(shown), worlds, *shown, sep="\t", flush=True)


if __name__ == "__main__":
    main()
