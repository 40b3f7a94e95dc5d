"""Draw the task bank of a generated world from the template library.

Worked examples come first (the battery's `example-copy` strategy prints
their outputs): two per band, each time the example that exposes the most
rules no example picked before exposes. Then tasks, in three passes over
the templates in a seeded order, those a calibration-resistant rule reaches
first:

1. coverage: for every rule of the world that no picked task lists yet (the
   rules fewest templates use first, then in file order), the first template
   (using the rule's site) whose task lists it;
2. the keystone: tasks the PLUCK or CARVE rules reach, until KEYSTONE_SHARE
   of the bank is such tasks, band by band;
3. the rest, band by band, until the bank has `size` tasks.

A template is made into a task at most once (instances.py), lazily, when a
pass first looks at it, and the battery runs only for a task a pass would
pick; a template found unable to make a task (flagged by the battery,
unportable, ...) is counted by reason; a task no pass wanted is never judged,
and is counted among the templates tried only. A world whose rules the
library cannot cover, or whose bank cannot reach its size or keystone share,
raises NoBank: the generator then draws another world.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from alienworlds.ruleset.phases import Phases
from alienworlds.tasks.bank import BANDS

from aliencode import World

from .exposure import uses
from .instances import Candidate, Drafted, Instantiation, WorkedExample
from .library import Template, example_templates, support, templates
from .schemes import is_resistant

KEYSTONE = ("PLUCK", "CARVE")
KEYSTONE_SHARE = 0.6  # of the bank's tasks, at least, reached by the PLUCK or CARVE rules
EXAMPLES_PER_BAND = 2


class NoBank(Exception):
    """This world's bank cannot be drawn: `kind` for counting, the message
    naming the rule or the numbers, `rule` the rule no task enters."""

    def __init__(self, kind: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.rule = rule


@dataclass
class BankDraw:
    tasks: list[Candidate]
    examples: list[WorkedExample]
    discarded: Counter = field(
        default_factory=Counter
    )  # templates tried that made no task, by reason
    tried: int = 0  # templates made into tasks or discarded
    keystone: int = 0  # tasks the keystone rules reach


def _touched(template: Template, world: World) -> bool:
    """Whether an altered rule of the world may apply where the template
    uses its site (an over-approximation: red herrings are ignored). A
    template no altered rule touches prints under the world what it prints
    under the manual, so the battery would flag its naive solution: it is
    not worth making into a task."""
    return any(uses(template, rule) for rule in world.rules if not rule.red_herring)


class _Drawer:
    def __init__(
        self, world: World, make: Instantiation, rng: random.Random, size: int, phases: Phases
    ) -> None:
        self.world = world
        self.phases = phases
        self.make = make
        self.size = size
        self.order = list(templates())
        rng.shuffle(self.order)
        # templates a calibration-resistant rule reaches first (a stable sort keeps
        # the seeded order within each group): the adaptive strategies flag most
        # of the others, and every template tried costs its whole battery
        hard = [
            r
            for r in world.rules
            if not r.red_herring and is_resistant(r.target, r.actual, r.scope)
        ]
        self.order.sort(key=lambda t: not any(uses(t, r) for r in hard))
        self.example_order = list(example_templates())
        rng.shuffle(self.example_order)
        self.made: dict[str, Drafted | str] = {}
        self.picked: list[Candidate] = []
        self.worked: list[str] = []

    def drafted(self, template: Template) -> Drafted | None:
        """The template made into a task short of the battery (made once), or
        None when it cannot be."""
        if template.id not in self.made:
            self.made[template.id] = (
                self.make.draft(template, self.worked)
                if _touched(template, self.world)
                else "no altered rule touches it"
            )
        found = self.made[template.id]
        return found if isinstance(found, Drafted) else None

    def candidate(self, template: Template, wanted: Callable[[Drafted], bool]) -> Candidate | None:
        """The template's task when it is `wanted` and no strategy of the
        battery passes it; the battery runs only for a wanted task."""
        found = self.drafted(template)
        if found is None or not wanted(found):
            return None
        verdict = found.verdict()
        return verdict if isinstance(verdict, Candidate) else None

    def free(self) -> list[Template]:
        taken = {c.template.id for c in self.picked}
        return [t for t in self.order if t.id not in taken]

    def keystone(self, candidate: Candidate | Drafted) -> bool:
        if isinstance(candidate, Drafted):
            # only the keystone rules are asked about: a task not yet judged may be
            # flagged, and then its other rules are never needed
            return any(candidate.enters(r.id) for r in self.world.rules if r.target in KEYSTONE)
        return any(self.world.rule(r).target in KEYSTONE for r in candidate.rules)

    # -- the passes ---------------------------------------------------------------

    def examples(self) -> list[WorkedExample]:
        made = [self.make.example(t) for t in self.example_order]
        usable = [e for e in made if isinstance(e, WorkedExample)]
        picked: list[WorkedExample] = []
        shown: set[str] = set()
        for band in BANDS:
            pool = [e for e in usable if e.template.band == band]
            for _ in range(EXAMPLES_PER_BAND):
                if not pool:
                    raise NoBank(
                        "too few worked examples",
                        f"fewer than {EXAMPLES_PER_BAND} worked examples of band {band} can be "
                        "ported",
                    )
                best = max(
                    pool, key=lambda e: len(set(e.rules) - shown)
                )  # the first of the best, in the seeded order
                pool.remove(best)
                picked.append(best)
                shown |= set(best.rules)
        self.worked = [e.output for e in picked]
        return picked

    def cover(self) -> None:
        # the rules fewest templates use first: a rule no task enters ends the draw before much is
        # made
        for rule in sorted(self.world.rules, key=lambda r: support().get((r.target, r.scope), 0)):
            if any(rule.id in c.rules for c in self.picked):
                continue
            for template in self.free():
                if not uses(template, rule):
                    continue
                found = self.candidate(template, lambda d: d.enters(rule.id))
                if found is not None:
                    self.picked.append(found)
                    break
            else:
                raise NoBank(
                    "a rule no task enters",
                    f"no template makes a task that rule {rule.id} ({rule.target}, {rule.scope}) "
                    "enters",
                    rule.id,
                )
        if len(self.picked) > self.size:
            raise NoBank(
                "too many tasks to cover",
                f"covering every rule takes {len(self.picked)} tasks, more than {self.size}",
            )

    def fill(self, done, accept) -> None:
        """Pick accepted tasks band by band (the band with the fewest picked
        first) until `done()` or no template is left; templates are made
        into tasks only as far as the search needs them."""
        while not done():
            counts = Counter(c.template.band for c in self.picked)
            for band in sorted(BANDS, key=lambda b: (counts[b], BANDS.index(b))):
                found = next(
                    (
                        c
                        for t in self.free()
                        if t.band == band
                        for c in [self.candidate(t, accept)]
                        if c is not None
                    ),
                    None,
                )
                if found is not None:
                    self.picked.append(found)
                    break
            else:
                return

    def status(self) -> str:
        """How far the draw got, for a heartbeat line."""
        return f"{len(self.picked)} of {self.size} tasks, {len(self.made)} templates tried"

    def run(self) -> BankDraw:
        with self.phases.phase("porting the worked examples"):
            examples = self.examples()
        with self.phases.phase("covering every rule with a task", self.status):
            self.cover()
        need = math.ceil(KEYSTONE_SHARE * self.size)
        full = lambda: len(self.picked) >= self.size  # noqa: E731
        with self.phases.phase(f"drawing keystone tasks (at least {need})", self.status):
            self.fill(lambda: full() or sum(map(self.keystone, self.picked)) >= need, self.keystone)
        with self.phases.phase(f"drawing the other tasks (up to {self.size})", self.status):
            self.fill(full, lambda c: True)
        keystone = sum(map(self.keystone, self.picked))
        if len(self.picked) < self.size:
            raise NoBank(
                "too few tasks", f"only {len(self.picked)} of {self.size} tasks can be made"
            )
        if keystone < need:
            raise NoBank(
                "too few keystone tasks",
                f"the keystone rules reach {keystone} tasks, fewer than {need}",
            )
        # why the templates tried made no task, as far as the draw learnt it: the
        # battery never runs for a task no pass wanted
        verdicts = [v.judged if isinstance(v, Drafted) else v for v in self.made.values()]
        discarded = Counter(v for v in verdicts if isinstance(v, str))
        ordered = sorted(self.picked, key=lambda c: BANDS.index(c.template.band))
        tasks = [replace(c, task=replace(c.task, id=f"T{k:02d}")) for k, c in enumerate(ordered, 1)]
        return BankDraw(tasks, examples, discarded, len(self.made), keystone)


def draw_bank(
    world: World,
    make: Instantiation,
    rng: random.Random,
    size: int,
    phases: Phases | None = None,
) -> BankDraw:
    """The bank of `world` (see the module docstring); raises NoBank.
    `phases` names each pass as it runs."""
    return _Drawer(world, make, rng, size, phases or Phases(None)).run()
