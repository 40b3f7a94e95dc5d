"""Grading AlienCode answers exactly (docs/tasks.md).

A synthesis answer is a program: for each private call, the answer runs (its
own output discarded), then the call runs in the same namespace, in the
world; the call's output must match the reference's. Without calls, the
answer is a whole program whose output must match the reference program's;
with private inputs it runs once per input table, after the table's names
are bound to values computed with the manual's semantics (so no world rule
touches the input data). A prediction answer is the predicted output text.
Expected outputs come from running the reference in the world, never from
stored text.

`AlienCodeGrader.grade(task_id, text)` takes the model's raw text and reads
it through `tasks.aliencode_reader`; `grade_answer` judges an answer
already in hand (a bank's own programs, in audits and the validity battery).
Both return a `tasks.grade.Grade`.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import zip_longest

from alienworlds.ruleset import standard_world

from aliencode import (
    AlienSyntaxError,
    Limits,
    Program,
    RunResult,
    Session,
    World,
    compile_program,
    compile_source,
    parse,
)
from aliencode import syntax as s
from aliencode.parser import token_count
from aliencode.walk import sites_in

from .aliencode_budget import Budget, derive, over_steps, over_tokens
from .aliencode_reader import read_answer
from .aliencode_verdict_memo import VERDICTS, verdict_key
from .bank import Bank, Task
from .compare import same_output
from .grade import CallGrade, Grade


class BankProblem(Exception):
    """The bank itself is broken for this task (a reference that fails)."""


def run_pair(
    setup: Program | None, program: Program, limits: Limits
) -> tuple[RunResult | None, RunResult]:
    """Run `setup` (output discarded) then `program` in one namespace."""
    with Session(limits) as session:
        first = session.execute(setup) if setup is not None else None
        if first is not None and first.error is not None:
            return first, first
        return first, session.execute(program)


def manual_world(world: World) -> World:
    """The manual's semantics, spelled with the world's keywords."""
    return replace(standard_world("aliencode"), keywords=world.keywords)


def binding_tree(table: dict[str, str], world: World) -> s.Program:
    """The parsed binding of an input table; raises AlienSyntaxError when a
    value is not exactly one expression (it must not smuggle in a statement)."""
    set_, as_ = world.surface("SET"), world.surface("AS")
    tree = parse(
        "\n".join(f"{set_} {name} {as_} ({expr})" for name, expr in table.items()), world.keywords
    )
    if [(st.targets, len(st.values)) if isinstance(st, s.Set) else None for st in tree.body] != [
        ((name,), 1) for name in table
    ]:
        raise AlienSyntaxError(f"an input value must be one expression: {table}", None, None)
    return tree


def compile_binding(table: dict[str, str], world: World, limits: Limits) -> Program:
    """An input table compiled with the manual's semantics; raises AlienSyntaxError."""
    return compile_program(binding_tree(table, world), manual_world(world), limits)


class Programs:
    """Parse each source once and compile it once per relevant world: an
    audit runs the same solutions and calls in the world and in many
    variants of it. A compiled program depends only on the rules whose site
    it holds, so worlds agreeing on those share it (all variants of one world
    share its keywords)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._trees: dict[str, tuple[s.Program, set[str]] | AlienSyntaxError] = {}
        self._programs: dict[tuple[str, str, tuple[str, ...]], Program | AlienSyntaxError] = {}

    def _memo(self, key: tuple, make) -> Program:
        """The program cached under `key`, made once; a compile error is
        cached and raised again."""
        if key not in self._programs:
            try:
                self._programs[key] = make()
            except AlienSyntaxError as exc:
                self._programs[key] = exc
        found = self._programs[key]
        if isinstance(found, AlienSyntaxError):
            raise found
        return found

    def binding(self, table: dict[str, str], world: World) -> Program:
        """An input table's binding, compiled once (it never depends on the world's rules)."""
        return self._memo(
            ("inputs", repr(list(table.items())), ()),
            lambda: compile_binding(table, world, self.limits),
        )

    def get(self, source: str, world: World) -> Program:
        """The compiled program; raises AlienSyntaxError."""
        if source not in self._trees:
            try:
                tree = parse(source, world.keywords)
                self._trees[source] = (tree, sites_in(tree))
            except AlienSyntaxError as exc:
                self._trees[source] = exc
        parsed = self._trees[source]
        if isinstance(parsed, AlienSyntaxError):
            raise parsed
        tree, sites = parsed
        key = (source, world.name, tuple(r.id for r in world.rules if r.target in sites))
        return self._memo(key, lambda: compile_program(tree, world, self.limits))


@dataclass(frozen=True)
class Run:
    """One private run of a solution: the solution's own result and steps
    (its definitions' run plus the call's; an input binding is not its own),
    or the syntax error that kept it from running."""

    result: RunResult | None
    steps: int = 0
    refused: AlienSyntaxError | None = None

    def text(self) -> str:
        return str(self.refused) if self.refused is not None else self.result.text()


def each_run(
    world: World, limits: Limits, solution: str, task: Task, programs: Programs | None = None
) -> Iterator[Run]:
    """Each private run of `task` with `solution` in `world`, one at a time:
    one per call or input table, or one for a whole program without inputs
    (or for a solution that does not compile)."""
    programs = programs or Programs(limits)
    try:
        program = programs.get(solution, world)
    except AlienSyntaxError as exc:
        yield Run(None, refused=exc)
        return
    if task.calls:
        runs = [(lambda call=call: programs.get(call, world), False) for call in task.calls]
    elif task.inputs:
        runs = [(lambda table=table: programs.binding(table, world), True) for table in task.inputs]
    else:
        result = run_pair(None, program, limits)[1]
        yield Run(result, result.steps)
        return
    for make, binding_first in runs:
        try:
            other = make()
        except AlienSyntaxError as exc:
            yield Run(None, refused=exc)
            continue
        first, second = (other, program) if binding_first else (program, other)
        setup, result = run_pair(first, second, limits)
        own = (
            result.steps
            if binding_first
            else setup.steps + (result.steps if result is not setup else 0)
        )
        yield Run(result, own)


def each_outcome(
    world: World, limits: Limits, solution: str, task: Task, programs: Programs | None = None
) -> Iterator[str]:
    """What a solution prints on each private run of `task` in `world`
    (error lines included), one run at a time (see each_run)."""
    return (run.text() for run in each_run(world, limits, solution, task, programs))


def outcomes(
    world: World, limits: Limits, solution: str, task: Task, programs: Programs | None = None
) -> tuple[str, ...]:
    """Every entry of `each_outcome`."""
    return tuple(each_outcome(world, limits, solution, task, programs))


def prints(
    world: World,
    limits: Limits,
    solution: str,
    task: Task,
    expected: Sequence[str],
    programs: Programs | None = None,
    same: Callable[[str, str], bool] = operator.eq,
) -> bool:
    """Whether `outcomes(...)` is `expected` (each pair `same`), running
    only up to the first run that differs: enough to know it differs."""
    missing = object()
    return all(
        got is not missing and want is not missing and same(got, want)
        for got, want in zip_longest(
            each_outcome(world, limits, solution, task, programs), expected, fillvalue=missing
        )
    )


def run_steps(world: World, limits: Limits, solution: str, task: Task) -> list[int]:
    """The steps a solution takes on each private run of `task` that it
    completes without error in `world` (see each_run): the measure of answer
    budgets."""
    return [
        run.steps
        for run in each_run(world, limits, solution, task)
        if run.result is not None and run.result.error is None
    ]


def program_output(world: World, limits: Limits, source: str) -> str:
    """What a whole program prints in `world` (error line included)."""
    return outcomes(world, limits, source, Task(id="", kind="synthesis", prompt=""))[0]


@dataclass
class AlienCodeGrader:
    world: World
    bank: Bank
    limits: Limits = field(default_factory=Limits)
    _programs: dict[tuple[str, str], Program] = field(default_factory=dict, repr=False)
    _bindings: dict[str, list[Program]] = field(default_factory=dict, repr=False)
    _expected: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _reference_steps: dict[str, list[int]] = field(default_factory=dict, repr=False)
    _budgets: dict[str, Budget] = field(default_factory=dict, repr=False)
    # replies that differ only around the answer share its grade
    _grades: dict[tuple[str, str], Grade] = field(default_factory=dict, repr=False)
    # `passes`: by task and the answer's digest (a battery's answers are many
    # and long; a verdict is one bit)
    _passes: dict[tuple[str, bytes], bool] = field(default_factory=dict, repr=False)
    _task_digests: dict[str, bytes] = field(default_factory=dict, repr=False)

    @cached_property
    def world_hash(self) -> str:
        """The world's hash, stamped on every grade (computing it serialises the
        whole world; a battery grades thousands of answers)."""
        return self.world.hash

    def compiled(self, source: str, role: str) -> Program:
        """Compile bank code once (calls, references, prediction programs)."""
        key = (role, source)
        if key not in self._programs:
            self._programs[key] = compile_source(source, self.world, self.limits)
        return self._programs[key]

    def bindings(self, task: Task) -> list[Program]:
        """The task's input tables, compiled once."""
        if task.id not in self._bindings:
            try:
                self._bindings[task.id] = [
                    compile_binding(table, self.world, self.limits) for table in task.inputs
                ]
            except AlienSyntaxError as exc:
                raise BankProblem(f"task {task.id}: an input does not compile: {exc}") from None
        return self._bindings[task.id]

    def expected(self, task: Task) -> list[str]:
        """The expected output of each call (or of the whole program)."""
        if task.id in self._expected:
            return self._expected[task.id]
        if task.kind == "prediction":
            with Session(self.limits) as session:
                result = session.execute(self.compiled(task.program, "program"))
            outputs = [result.text()]
        else:
            try:
                reference = self.compiled(task.reference, "reference")
            except AlienSyntaxError as exc:
                raise BankProblem(
                    f"task {task.id}: the reference does not compile: {exc}"
                ) from None
            outputs, steps = [], []
            if task.whole_program:
                for binding in self.bindings(task) or [None]:
                    setup, result = run_pair(binding, reference, self.limits)
                    if setup is not None and setup.error:
                        raise BankProblem(f"task {task.id}: an input fails: {setup.error}")
                    if result.error:
                        raise BankProblem(f"task {task.id}: the reference fails: {result.error}")
                    outputs.append(result.output)
                    steps.append(result.steps)
            for call in task.calls:
                setup, result = run_pair(reference, self.compiled(call, "call"), self.limits)
                if result.error:
                    raise BankProblem(
                        f"task {task.id}: the reference fails on a call: {result.error}"
                    )
                outputs.append(result.output)
                steps.append(setup.steps + result.steps)
            self._reference_steps[task.id] = steps
        self._expected[task.id] = outputs
        return outputs

    def budget(self, task: Task) -> Budget | None:
        """The task's answer budget (see aliencode_budget); None for a
        prediction task. Raises BankProblem when the reference fails."""
        if task.kind == "prediction":
            return None
        if task.id not in self._budgets:
            self.expected(task)
            manual = manual_world(self.world)
            solutions = [task.reference, task.naive, *task.variants]
            tokens = [n for n in map(token_count, solutions) if n is not None]
            steps = list(self._reference_steps[task.id])
            for source in solutions[1:]:
                steps += run_steps(manual, self.limits, source, task)
            self._budgets[task.id] = derive(tokens, steps)
        return self._budgets[task.id]

    def grade(self, task_id: str, text: str) -> Grade:
        """The verdict on a reply (the model's raw text) to task `task_id`:
        the answer the reader finds in it, graded on every private run."""
        task = self.bank.task(task_id)
        reading = read_answer(task, text, self.world.keywords)
        if reading.answer is None:
            return Grade(task.id, False, reading.problem, self.world_hash)
        key = (task.id, reading.answer)
        if key not in self._grades:
            self._grades[key] = self.grade_answer(task_id, reading.answer)
        return self._grades[key]

    def grade_answer(self, task_id: str, answer: str, stop_at_failure: bool = False) -> Grade:
        """Grade an answer (a program, or a prediction's output text) on every
        private run (with `stop_at_failure`, only up to the first failing
        one: enough to know it fails)."""
        task = self.bank.task(task_id)
        expected = self.expected(task)
        if task.kind == "prediction":
            ok = same_output(answer, expected[0])
            calls = (CallGrade(ok, "ok" if ok else "wrong output"),)
        else:
            submission, error = self._submission(task, answer)
            if submission is None:
                # it fails as a whole, before any private run: said once, with no calls
                return Grade(task.id, False, error, self.world_hash, answer)
            calls = tuple(self._synthesis(task, submission, expected, stop_at_failure))
        failed = [c.reason for c in calls if not c.passed]
        return Grade(
            task.id, not failed, failed[0] if failed else "ok", self.world_hash, answer, calls
        )

    def passes(self, task_id: str, answer: str) -> bool:
        """Whether `answer` passes every private run of the task, decided
        once per answer: a battery run in stages (the generators') meets
        the same answer from several strategies, stage after stage."""
        digest = hashlib.blake2b(answer.encode(), digest_size=16).digest()
        key = (task_id, digest)
        if key not in self._passes:
            # another grader of the same task may have judged it (aliencode_verdict_memo.py)
            shared = (
                verdict_key(self._task_digest(task_id), self.world_hash, self.limits, digest)
                if VERDICTS.on
                else b""
            )
            self._passes[key] = VERDICTS.passes(
                shared, lambda: self.grade_answer(task_id, answer, stop_at_failure=True).passed
            )
        return self._passes[key]

    def _task_digest(self, task_id: str) -> bytes:
        """A digest of every field of the task but its id and `extra`."""
        if task_id not in self._task_digests:
            content = self.bank.task(task_id).content()
            self._task_digests[task_id] = hashlib.blake2b(content.encode(), digest_size=16).digest()
        return self._task_digests[task_id]

    def _submission(self, task: Task, answer: str) -> tuple[Program | None, str | None]:
        """The compiled answer, or why it fails whatever the run: over the
        token budget (counted before compiling), or it does not compile."""
        budget = self.budget(task)
        tokens = token_count(answer, stop_after=budget.tokens)
        if tokens is not None and tokens > budget.tokens:
            return None, over_tokens(budget)
        try:
            return compile_source(answer, self.world, self.limits), None
        except AlienSyntaxError as exc:
            return None, str(exc)

    def _synthesis(
        self, task: Task, submission: Program, expected: list[str], stop_at_failure: bool
    ) -> list[CallGrade]:
        budget = self.budget(task)
        out = []
        if task.whole_program:
            runs = [(binding, submission) for binding in self.bindings(task) or [None]]
        else:
            runs = [(submission, self.compiled(call, "call")) for call in task.calls]
        for (setup_program, program), want in zip(runs, expected):
            setup, result, own = self._run_answer(
                setup_program, program, setup_program is submission, budget
            )
            if own > budget.steps:
                out.append(CallGrade(False, over_steps(budget)))
            elif setup is not None and setup.error is not None and setup_program is submission:
                out.append(CallGrade(False, f"the answer itself fails: {setup.error}"))
            else:
                out.append(self._judge(result, want))
            if stop_at_failure and not out[-1].passed:
                break
        return out

    def _run_answer(
        self, setup: Program | None, program: Program, answer_first: bool, budget: Budget
    ) -> tuple[RunResult | None, RunResult, int]:
        """One private run, as run_pair, with the answer's parts capped just
        past the budget (enough to know it is over); also the steps the
        answer used (an input binding's are not its own)."""
        cap = budget.steps + 1
        with Session(self.limits) as session:
            first = (
                session.execute(setup, max_steps=cap if answer_first else None)
                if setup is not None
                else None
            )
            if first is not None and first.error is not None:
                return first, first, first.steps if answer_first else 0
            result = session.execute(program, max_steps=cap)
        return (
            first,
            result,
            result.steps + (first.steps if answer_first and first is not None else 0),
        )

    @staticmethod
    def _judge(result: RunResult, want: str) -> CallGrade:
        if result.error is not None:
            return CallGrade(False, str(result.error))
        if same_output(result.output, want):
            return CallGrade(True, "ok")
        return CallGrade(False, "wrong output")
