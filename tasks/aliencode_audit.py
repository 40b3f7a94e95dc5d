"""Build and audit an AlienCode world's task bank (issue: main world).

Computes, never trusts: each task's expected outputs (by running the
reference in the world) and its rule dependencies. A rule belongs to a task
when switching that rule alone back to the manual changes what the reference
or the naive solution prints. (A red herring, an IDENTITY rule, must shadow
an altered rule of its site in a narrower scope; a stand-alone one changes
nothing any program can observe, and the audit says so: aliencode/shadowing.py.)
Then it checks the bank's promises: references pass, naive solutions run under
the manual but fail in the world, every rule is exercised, and the counts the
bank's [audit] table declares.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from aliencode import AlienSyntaxError, Limits, World, parse
from aliencode.shadowing import inert_rules
from aliencode.walk import sites_in

from .aliencode_disclosure import leaks
from .aliencode_grading import (
    AlienCodeGrader,
    BankProblem,
    Programs,
    manual_world,
    outcomes,
    prints,
    program_output,
)
from .aliencode_routes import unavoidable_rules
from .aliencode_validity import STRATEGIES, judge, scored
from .bank import Bank, Task
from .compare import normalise, same_output
from .forked_map import forked_map
from .validity import Validity, reported_only

MAX_LINES = 40


def sites_used(*sources: str, keywords: Mapping[str, str] | None = None) -> set[str]:
    """The sites a program's text, spelled with `keywords` (a world's
    renamings), can reach (rules fire only at sites)."""
    used: set[str] = set()
    for source in sources:
        if not source:
            continue
        try:
            used |= sites_in(parse(source, keywords))
        except AlienSyntaxError:
            continue
    return used


def code_lines(source: str) -> int:
    return sum(
        1 for line in source.splitlines() if line.strip() and not line.strip().startswith("#")
    )


@dataclass
class TaskAudit:
    id: str
    kind: str
    band: str
    family: str
    representation: str
    depth: str
    rules: list[str]
    n_calls: int  # private runs: calls, or input tables
    reference_pass: bool
    naive_pass: bool  # in the world
    naive_standard_ok: bool
    distinct_outputs: int = 0  # distinct expected outputs over the private runs
    variants: int = 0
    unavoidable: list[str] = field(
        default_factory=list
    )  # rules no manual route escapes (aliencode_routes)
    budget: dict[str, int] = field(default_factory=dict)  # the answer budget (aliencode_budget)

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "kind": self.kind,
            "band": self.band,
            "family": self.family,
            "representation": self.representation,
            "depth": self.depth,
            "rules": self.rules,
            "n_calls": self.n_calls,
            "distinct_outputs": self.distinct_outputs,
            "variants": self.variants,
            "unavoidable": self.unavoidable,
            "budget": self.budget,
        }


@dataclass
class Audit:
    world: World
    tasks: list[TaskAudit] = field(default_factory=list)
    examples: list[dict[str, object]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    validity: Validity | None = None

    @property
    def reference_pass(self) -> int:
        return sum(t.reference_pass for t in self.tasks)

    @property
    def naive_pass(self) -> int:
        return sum(t.naive_pass for t in self.tasks)


class TaskRules:
    """Which rules enter one task: those whose removal alone changes what the
    reference or the naive solution (a prediction task: its program) prints
    on some private run. Asked one rule at a time, each answer computed once:
    a generator asks whether one rule enters a task long before it needs the
    whole list, if ever."""

    def __init__(
        self, world: World, limits: Limits, task: Task, programs: Programs | None = None
    ) -> None:
        self.world = world
        self.limits = limits
        self.task = task
        self.programs = programs or Programs(limits)
        self.solutions = (
            [task.program] if task.kind == "prediction" else [task.reference, task.naive]
        )
        calls_sites = sites_used(*task.calls, keywords=world.keywords)
        self.sites = {
            sol: sites_used(sol, keywords=world.keywords) | calls_sites for sol in self.solutions
        }
        self._base: dict[str, tuple[str, ...]] = {}
        self._enters: dict[str, bool] = {}

    def _outcomes(self, solution: str) -> tuple[str, ...]:
        # every solution's runs in the world first, in order, as the audit always
        # ran them (tests/aliencode/invariants.py records the audit's runs in order)
        if not self._base:
            self._base = {
                sol: outcomes(self.world, self.limits, sol, self.task, self.programs)
                for sol in self.solutions
            }
        return self._base[solution]

    def enters(self, rule_id: str) -> bool:
        if rule_id not in self._enters:
            rule = self.world.rule(rule_id)
            # a rule acts only at its site: a solution (with its calls) without
            # that site prints the same whichever way the rule goes
            touched = [sol for sol in self.solutions if rule.target in self.sites[sol]]
            changed = self.world.without(rule_id) if touched else self.world
            self._enters[rule_id] = any(
                not prints(changed, self.limits, sol, self.task, self._outcomes(sol), self.programs)
                for sol in touched
            )
        return self._enters[rule_id]

    def all(self) -> list[str]:
        self._outcomes(self.solutions[0])
        return [rule.id for rule in self.world.rules if self.enters(rule.id)]


def task_rules(
    world: World, limits: Limits, task: Task, programs: Programs | None = None
) -> list[str]:
    """The rules that enter `task` (see TaskRules)."""
    return TaskRules(world, limits, task, programs).all()


def exposed_rules(world: World, limits: Limits, program: str) -> tuple[str, list[str]]:
    """What a worked example prints in the world, and the rules it exposes:
    those whose removal alone changes what it prints."""
    output = program_output(world, limits, program)
    used = sites_used(program, keywords=world.keywords)
    rules = [
        rule.id
        for rule in world.rules
        if rule.target in used and program_output(world.without(rule.id), limits, program) != output
    ]
    return output, rules


def _keystone(rule_ids: list[str], world: World, targets: set[str]) -> bool:
    return any(world.rule(r).target in targets for r in rule_ids)


def audit(world: World, bank: Bank, limits: Limits | None = None, jobs: int = 1) -> Audit:
    """The bank audited in `world` (`jobs`: processes auditing tasks and
    judging the trivial strategies' answers at once; the report is the
    same). Each task is audited and judged in one call, so the expected
    outputs its audit computes serve the battery too."""
    start = time.perf_counter()
    limits = limits or Limits()
    report = Audit(world)
    grader = AlienCodeGrader(world, bank, limits)
    programs = Programs(limits)
    manual = manual_world(world)
    example_problems = []
    for example in bank.examples:
        output, rules = exposed_rules(world, limits, example.program)
        if "[AlienError]" in output:
            example_problems.append(
                f"example {example.id}: the program fails: {output.splitlines()[-1]}"
            )
        if example.rules and sorted(example.rules) != sorted(rules):
            example_problems.append(
                f"example {example.id}: declares rules {sorted(example.rules)} but exposes "
                f"{sorted(rules)}"
            )
        report.examples.append(
            {"id": example.id, "band": example.band, "rules": rules, "output": output}
        )
    outputs = [str(e["output"]) for e in report.examples]
    judged = judge(world, limits, grader, outputs)

    def audited(task: Task) -> tuple[list[str], TaskAudit | None, list[str]]:
        problems, row = _audit_task(task, world, limits, grader, programs, manual)
        return problems, row, judged(task)

    battery_start = time.perf_counter()
    verdicts = []
    for problems, row, passed in forked_map(audited, bank.tasks, jobs):
        report.problems += problems
        if row is not None:
            report.tasks.append(row)
        verdicts.append(passed)
    report.problems += example_problems
    _check_coverage(report)
    _check_requirements(report, bank)
    report.validity = scored(
        bank, verdicts, STRATEGIES, time.perf_counter() - battery_start, reported_only(bank)
    )
    _check_validity(report, bank)
    report.seconds = time.perf_counter() - start
    return report


def _audit_task(
    task: Task,
    world: World,
    limits: Limits,
    grader: AlienCodeGrader,
    programs: Programs,
    manual: World,
) -> tuple[list[str], TaskAudit | None]:
    """What the audit finds of one task: its problems, and its row (none
    for a task whose expected outputs cannot be computed)."""
    problems: list[str] = []
    try:
        expected = grader.expected(task)
    except BankProblem as exc:
        return [str(exc)], None
    rules = task_rules(world, limits, task, programs)
    problems += leaks(task, expected, world, limits)
    if task.kind == "prediction":
        ref_ok, naive_ok, naive_std = True, False, True
    else:
        ref_ok = grader.grade_answer(task.id, task.reference).passed
        naive_ok = grader.grade_answer(task.id, task.naive, stop_at_failure=True).passed
        naive_manual = outcomes(manual, limits, task.naive, task, programs)
        naive_std = all("[AlienError]" not in o for o in naive_manual)
        if not ref_ok:
            problems.append(f"task {task.id}: the reference does not pass")
        if not naive_std:
            problems.append(
                f"task {task.id}: the naive solution fails under the manual's semantics"
            )
        elif task.inputs and not all(same_output(a, b) for a, b in zip(naive_manual, expected)):
            problems.append(
                f"task {task.id}: the reference in the world and the naive solution under "
                "the manual disagree on an input"
            )
        for k, variant in enumerate(task.variants, 1):
            if not prints(manual, limits, variant, task, naive_manual, programs):
                problems.append(
                    f"task {task.id}: variant {k} does not print what the naive solution "
                    "prints under the manual's semantics"
                )
        if code_lines(task.reference) > MAX_LINES:
            problems.append(f"task {task.id}: the reference has more than {MAX_LINES} lines")
    distinct = len({tuple(normalise(o)) for o in expected})
    budget = grader.budget(task)
    row = TaskAudit(
        task.id,
        task.kind,
        task.band,
        task.family,
        task.representation,
        task.depth,
        rules,
        len(task.calls) or len(task.inputs),
        ref_ok,
        naive_ok,
        naive_std,
        distinct,
        len(task.variants),
        list(unavoidable_rules(world, task.naive)) if task.kind == "synthesis" else [],
        budget.as_dict() if budget is not None else {},
    )
    return problems, row


def _check_validity(report: Audit, bank: Bank) -> None:
    """A task some trivial strategy passes measures nothing (a bank may only
    report this, with [audit] validity = "report")."""
    if bank.requirements.get("validity") == "report":
        return
    for task_id in report.validity.flagged:
        names = [
            name for name, score in report.validity.strategies.items() if task_id in score.passed
        ]
        report.problems.append(
            f"task {task_id}: passed by the trivial strateg{'ies' if len(names) > 1 else 'y'} "
            f"{', '.join(names)}"
        )


def _check_coverage(report: Audit) -> None:
    inert = {i.rule.id: i.message() for i in inert_rules(report.world)}
    report.problems += inert.values()
    listed = Counter(r for t in report.tasks for r in t.rules)
    for rule in report.world.rules:
        if not listed[rule.id] and rule.id not in inert:
            what = "red herring" if rule.red_herring else "altered rule"
            report.problems.append(f"rule {rule.id}: this {what} appears in no task's rule list")


def _check_requirements(report: Audit, bank: Bank) -> None:
    """The counts a bank's [audit] table promises."""
    req = bank.requirements
    tasks = report.tasks

    def expect(label: str, want: object, got: object) -> None:
        if want != got:
            report.problems.append(f"{label}: expected {want}, found {got}")

    if "tasks" in req:
        expect("number of tasks", req["tasks"], len(bank.tasks))
    for key, attr in (("families", "family"), ("kinds", "kind"), ("bands", "band")):
        if key in req:
            counts = Counter(getattr(t, attr) for t in bank.tasks)
            for name, want in req[key].items():
                expect(f"tasks with {attr} {name}", want, counts.get(name, 0))
    synthesis = [t for t in tasks if t.kind == "synthesis"]
    for key, attr, what in (
        ("min_runs", "n_calls", "private calls or input tables"),
        ("min_distinct_outputs", "distinct_outputs", "distinct expected outputs"),
        ("min_variants", "variants", "variants"),
    ):
        if key in req:
            for t in synthesis:
                if getattr(t, attr) < req[key]:
                    report.problems.append(
                        f"task {t.id}: {getattr(t, attr)} {what}, fewer than {req[key]}"
                    )
    for band, want in req.get("calls_per_band", {}).items():
        for task in bank.tasks:
            if task.band == band and task.kind == "synthesis":
                expect(f"task {task.id} ({band}): private calls", want, len(task.calls))
    if "max_naive_pass" in req and report.naive_pass > req["max_naive_pass"]:
        report.problems.append(
            f"naive solutions passing in the world: {report.naive_pass}, at most "
            f"{req['max_naive_pass']} allowed"
        )
    if "keystone" in req:
        targets = set(req["keystone"]["targets"])
        n = sum(_keystone(t.rules, report.world, targets) for t in tasks)
        if n < req["keystone"]["min_tasks"]:
            report.problems.append(
                f"keystone rules ({', '.join(sorted(targets))}) enter {n} tasks, fewer than "
                f"{req['keystone']['min_tasks']}"
            )
    if "examples_per_band" in req:
        counts = Counter(e.band for e in bank.examples)
        for band in ("apply", "interact", "scope", "engineer", "algorithm"):
            expect(f"worked examples in band {band}", req["examples_per_band"], counts.get(band, 0))
    if "rules" in req:
        expect("discovery targets", req["rules"], len(report.world.rules))
    if "red_herrings" in req:
        expect("red herrings", req["red_herrings"], sum(r.red_herring for r in report.world.rules))
