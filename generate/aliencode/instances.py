"""One template made into one task of one world, or the reason it cannot be.

A template's parameters and inputs are drawn; the naive solution (the
template) must run cleanly under the manual on every private run, its
variants must print the same, the private runs must have at least
MIN_DISTINCT different outputs, and what the task shows must state none of
them (else the inputs are drawn again, up to INPUT_TRIES times). Then the
reference is the template ported to the world: for a CRAFT task the
private calls are written in the manual's semantics and ported too, so the
CRAFT receives exactly the values the calls mean; since the audit runs the
naive solution and the variants under the manual on the calls as written
(ported), they must run cleanly and agree there too. The port must print,
in the world, what the template prints under the manual, on every private
run.
A template is not made into a task at all unless its naive solution has
route coverage: some capability it uses has every manual route altered
where it could run (tasks/aliencode_routes.py), so an answer that knows
nothing cannot simply step around the world's rules. Last, the whole
validity battery runs on the task alone, adaptive strategies included; a
task some strategy passes is discarded. `draft` stops short of the battery
(a Drafted task runs it when its verdict is first asked for), so that a bank
draw pays for it only on the tasks it would pick; `task` gives the verdict.

Every draw comes from a random source of the template's own (seeded with
the bank's seed and the template's id), so whether a template makes a
task does not depend on which templates were tried before it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from alienworlds.porting import Porter, PortError
from alienworlds.ruleset import standard_world
from alienworlds.tasks.aliencode_audit import TaskRules, exposed_rules
from alienworlds.tasks.aliencode_disclosure import leaks
from alienworlds.tasks.aliencode_grading import (
    AlienCodeGrader,
    BankProblem,
    Programs,
    manual_world,
    outcomes,
    prints,
    program_output,
)
from alienworlds.tasks.aliencode_routes import unavoidable_rules
from alienworlds.tasks.aliencode_validity import STRATEGIES, battery
from alienworlds.tasks.bank import Bank, Task
from alienworlds.tasks.compare import normalise

from aliencode import AlienSyntaxError, Limits, World, parse
from aliencode.unparse import unparse, value_literal

from .draws import shown
from .library import ExampleTemplate, Template, fill
from .schemes import is_resistant

# Every strategy flags (a task any of them passes is discarded), except in a
# world without a calibration-resistant rule (fewer than three altered rules
# leave no room for one): nothing there resists the adaptive strategies, so
# its bank reports them under [audit] report_only and they count in its floor.
ADAPTIVE = (
    "compact-calibrating",
    "avoidant",
    "mended-calibrating",
    "calibrating-avoidant",
    "sweep-mended-calibrating",
)
# The battery runs in stages, each only on a task no earlier stage flagged:
# the fixed strategies first (cheap), then the adaptive ones. Every stage was
# run on every task of eight default worlds (680 tasks past the fixed ones):
# `mended-calibrating` flags the most per second of work (223 tasks, 7.9 per
# second), the others 1-2 per second after it, in the order that cost least
# when every order was replayed from those times and verdicts (keeping the
# SWEEP reader after `mended-calibrating`: written after those answers, its
# own cost a third of what it is first).
# `self-calibrating` writes the largest answers and, under the answer budgets,
# passes nothing, so it comes last. The order decides only how soon a flagged
# task is given up: on eleven seeds of one world each the banks were the same
# and the battery took 8% less time (docs/generated-worlds.md).
LAST = (
    "mended-calibrating",
    "calibrating-avoidant",
    "sweep-mended-calibrating",
    "avoidant",
    "compact-calibrating",
    "self-calibrating",
)


def reported(world: World) -> tuple[str, ...]:
    """The strategies a bank of `world` measures without flagging."""
    resistant = any(
        not r.red_herring and is_resistant(r.target, r.actual, r.scope) for r in world.rules
    )
    return () if resistant else ADAPTIVE


def stages(world: World) -> tuple[tuple[str, ...], ...]:
    """The battery's stages for a candidate task of `world`."""
    flagging = [name for name in STRATEGIES if name not in reported(world)]
    return (tuple(n for n in flagging if n not in LAST), *((n,) for n in LAST if n in flagging))


RUNS = 6  # private calls or input tables per task
MIN_DISTINCT = 3  # distinct expected outputs over the private runs
INPUT_TRIES = 6  # draws of a task's inputs before the template is given up
DISTINCT_TRIES = 60  # draws for RUNS + 1 inputs that differ from each other
STANDARD = standard_world("aliencode")
LOOK_STEPS = 100_000  # steps of one run in the first look at whether a task is worth porting


@dataclass
class Candidate:
    """A template made into a task that passed every check."""

    template: Template
    task: Task
    rules: list[str]


@dataclass
class Drafted:
    """A template made into a task that passed every check but the battery,
    the costliest (most of a generation's time). The bank draw asks first
    whether a rule enters the task, and runs the battery only for a task it
    would pick: most tasks it makes are never picked, above all in a world
    it then rejects. The verdict is the one `Instantiation.task` gives."""

    template: Template
    task: Task
    task_rules: TaskRules
    flagged: Callable[[], bool]  # runs the battery's stages
    _verdict: Candidate | str | None = field(default=None, repr=False)

    def enters(self, rule_id: str) -> bool:
        return self.task_rules.enters(rule_id)

    @property
    def rules(self) -> list[str]:
        return self.task_rules.all()

    @property
    def judged(self) -> Candidate | str | None:
        """The verdict if the battery has run, None if not."""
        return self._verdict

    def verdict(self) -> Candidate | str:
        """A Candidate, or "flagged" when a strategy of the battery passes the task."""
        if self._verdict is None:
            self._verdict = (
                "flagged" if self.flagged() else Candidate(self.template, self.task, self.rules)
            )
        return self._verdict


@dataclass
class WorkedExample:
    template: ExampleTemplate
    prompt: str
    program: str  # ported: what the world runs
    output: str
    rules: list[str] = field(default_factory=list)


class Instantiation:
    """Make tasks and worked examples of one world (one porter for all)."""

    def __init__(
        self, world: World, porter: Porter, seed: str, limits: Limits | None = None
    ) -> None:
        self.world = world
        self.porter = porter
        self.seed = seed
        self.limits = limits or Limits()
        self.manual = manual_world(world)
        self.programs = Programs(
            self.limits
        )  # compiled programs, shared by every template of the world

    def rng(self, kind: str, template_id: str) -> random.Random:
        return random.Random(f"{self.seed}:{kind}:{template_id}")

    # -- spelling ---------------------------------------------------------------

    def respell(self, source: str) -> str:
        """A standard-keyword program in the world's keywords."""
        if not self.world.keywords:
            return source
        return unparse(parse(source, {}), self.world.keywords)

    def respell_prompt(self, text: str) -> str:
        for keyword in sorted(self.world.keywords):
            text = re.sub(rf"\b{keyword}\b", self.world.surface(keyword), text)
        return text

    # -- worked examples --------------------------------------------------------

    def example(self, template: ExampleTemplate) -> WorkedExample | str:
        """A worked example ported to the world, or why not."""
        rng = self.rng("example", template.id)
        values = {name: gen.draw(rng, {}) for name, gen in template.params}
        source = fill(
            template.program, {n: value_literal(v, STANDARD.surface) for n, v in values.items()}
        )
        prompt = self.respell_prompt(
            fill(template.prompt, {n: shown(v) for n, v in values.items()})
        )
        try:
            program = self.porter.port(source, examples=[], keywords={}, callers="manual").source
        except PortError:
            return "unportable"
        output, rules = exposed_rules(self.world, self.limits, program)
        if "[AlienError]" in output or output != program_output(STANDARD, self.limits, source):
            return "port disagrees"
        return WorkedExample(template, prompt, program, output, rules)

    # -- tasks --------------------------------------------------------------------

    def task(self, template: Template, worked_outputs: list[str]) -> Candidate | str:
        """The template made into a task of the world, or why not."""
        drafted = self.draft(template, worked_outputs)
        return drafted if isinstance(drafted, str) else drafted.verdict()

    def draft(self, template: Template, worked_outputs: list[str]) -> Drafted | str:
        """The template made into a task of the world, short of the battery,
        or why not (see Drafted)."""
        rng = self.rng("task", template.id)
        values = {name: gen.draw(rng, {}) for name, gen in template.params}
        code = {n: value_literal(v, STANDARD.surface) for n, v in values.items()}
        naive = fill(template.naive, code)
        if not unavoidable_rules(self.world, self.respell(naive)):
            return "no unavoidable rule"
        variants = [fill(v, code) for v in template.variants]
        prompt = self.respell_prompt(
            fill(template.prompt, {n: shown(v) for n, v in values.items()})
        )
        drawn = self._inputs(template, rng, naive, variants, prompt)
        if isinstance(drawn, str):
            return drawn
        task, runs_std, expected = drawn
        if self._passes_unported(task, expected):
            return "flagged"
        try:
            if template.function:
                reference = self.porter.port(
                    naive, examples=runs_std, keywords={}, callers="manual"
                )
                calls = [
                    self.porter.port(call, examples=[], keywords={}, callers="manual")
                    for call in runs_std[1:]
                ]
                if any(c.helpers for c in calls):
                    return "call needs a helper"
                task = replace(
                    task,
                    reference=reference.source,
                    calls=tuple(c.source.strip("\n") for c in calls),
                )
            else:
                reference = self.porter.port(
                    naive, examples=runs_std, keywords={}, callers="manual"
                )
                task = replace(task, reference=reference.source)
        except PortError:
            return "unportable"
        if template.function:
            # the audit runs the naive solution and the variants under the
            # manual on the calls as written, which are ported: there they
            # may mean other values than the ones drawn
            naive_manual = outcomes(self.manual, self.limits, task.naive, task, self.programs)
            if any("[AlienError]" in o for o in naive_manual):
                return "naive fails on the ported calls"
            if not all(
                prints(self.manual, self.limits, v, task, naive_manual, self.programs)
                for v in task.variants
            ):
                return "variant disagrees on the ported calls"
        bank = Bank("aliencode", self.world.name, (), (task,), "<generated>")
        grader = AlienCodeGrader(self.world, bank, self.limits)
        try:
            got = grader.expected(task)
        except BankProblem:
            return "port disagrees"
        if [normalise(o) for o in got] != [normalise(o) for o in expected]:
            return "port disagrees"
        if leaks(task, got, self.world, self.limits):
            return "shows an output"
        return Drafted(
            template,
            task,
            TaskRules(self.world, self.limits, task, self.programs),
            lambda: self._flagged(bank, grader, worked_outputs),
        )

    def _flagged(self, bank: Bank, grader: AlienCodeGrader, worked_outputs: list[str]) -> bool:
        """Whether some stage of the battery passes the bank's one task."""
        return any(
            battery(
                self.world, bank, self.limits, grader, worked_outputs, strategies=strategies
            ).flagged
            for strategies in stages(self.world)
        )

    def _passes_unported(self, task: Task, expected: list[str]) -> bool:
        """Whether the naive solution or a variant already prints, in the
        world, what is expected on every private run: the battery would
        flag the task, so it is not worth porting (a cheap first look; the
        battery still decides for the rest). A source is run only up to its
        first wrong run, each under at most LOOK_STEPS: a run the world
        makes endless fails here in a twentieth of the time, and the
        battery, under the full limits, still judges it."""
        limits = self.limits.replace(max_steps=min(self.limits.max_steps, LOOK_STEPS))
        return any(
            prints(self.world, limits, source, task, expected, self.programs, _same)
            for source in (task.naive, *task.variants)
        )

    def _inputs(
        self, template: Template, rng: random.Random, naive: str, variants: list[str], prompt: str
    ) -> tuple[Task, list[str], list[str]] | str:
        """Draw the task's example and private runs until they pass the
        manual-side checks: (the task without reference, the runs in the
        manual's standard spelling (the example first), the expected
        outputs)."""
        reason = "inputs"
        for _ in range(INPUT_TRIES):
            tables = draw_tables(template, rng)
            if tables is None:
                continue
            task, runs_std = self.shape(template, tables, naive, variants, prompt)
            expected = outcomes(self.manual, self.limits, task.naive, task, self.programs)
            if any("[AlienError]" in o for o in expected):
                reason = "naive fails"
                continue
            if len({tuple(normalise(o)) for o in expected}) < MIN_DISTINCT:
                reason = "outputs alike"
                continue
            if not all(
                prints(self.manual, self.limits, v, task, expected, self.programs)
                for v in task.variants
            ):
                reason = "variant disagrees"
                continue
            if leaks(task, list(expected), self.world, self.limits):
                reason = "shows an output"
                continue
            return task, runs_std, list(expected)
        return reason

    def shape(
        self,
        template: Template,
        tables: list[dict[str, object]],
        naive: str,
        variants: list[str],
        prompt: str,
    ) -> tuple[Task, list[str]]:
        """The task (world spelling, no reference yet) and its runs in the
        standard spelling: calls, or binding programs for the porter."""
        world = self.world
        common = dict(
            id=template.id,
            kind="synthesis",
            prompt=prompt,
            band=template.band,
            family=template.family,
            representation=template.representation,
            depth=template.depth,
            naive=self.respell(naive),
            variants=tuple(self.respell(v) for v in variants),
        )
        if template.function:
            calls = [self._call(template, table) for table in tables]
            task = Task(
                **common,
                example=self.respell(calls[0]).strip("\n"),
                calls=tuple(self.respell(c).strip("\n") for c in calls[1:]),
                reference=naive,
            )
            return task, calls
        bindings = [
            {name: value_literal(table[name], world.surface) for name, _ in template.inputs}
            for table in tables
        ]
        runs = [
            "\n".join(
                f"SET {name} AS {value_literal(table[name], STANDARD.surface)}"
                for name, _ in template.inputs
            )
            for table in tables
        ]
        task = Task(
            **common, example_inputs=bindings[0], inputs=tuple(bindings[1:]), reference=naive
        )
        return task, runs

    @staticmethod
    def _call(template: Template, table: dict[str, object]) -> str:
        args = ", ".join(value_literal(table[p], STANDARD.surface) for p in template.parameters)
        call = f"{template.craft}({args})"
        return call if template.prints else f"EMIT({call})"


def _same(got: str, want: str) -> bool:
    return normalise(got) == normalise(want)


def draw_tables(template: Template, rng: random.Random) -> list[dict[str, object]] | None:
    """RUNS + 1 different draws of the template's inputs (the first is the example)."""
    tables: list[dict[str, object]] = []
    seen: set[str] = set()
    for _ in range(DISTINCT_TRIES):
        env: dict[str, object] = {}
        for name, gen in template.generators():
            env[name] = gen.draw(rng, env)
        key = repr(sorted(env.items()))
        if key not in seen:
            seen.add(key)
            tables.append(env)
            if len(tables) == RUNS + 1:
                return tables
    return None


__all__ = ["AlienSyntaxError", "Candidate", "Drafted", "Instantiation", "WorkedExample"]
