"""Grading AlienCode answers exactly (docs/tasks.md).

A synthesis answer is a program: for each private call, the answer runs (its
own output discarded), then the call runs in the same namespace, in the
world; the call's output must match the reference's. Without calls, the
answer is a whole program whose output must match the reference program's.
A prediction answer is the predicted output text. Expected outputs come from
running the reference in the world, never from stored text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from aliencode import AlienSyntaxError, Limits, Program, RunResult, Session, World, compile_source

from .bank import Bank, Task
from .compare import same_output


@dataclass(frozen=True)
class CallGrade:
    passed: bool
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"passed": self.passed, "reason": self.reason}


@dataclass(frozen=True)
class Grade:
    task: str
    passed: bool
    calls: tuple[CallGrade, ...]
    world_hash: str

    def as_dict(self) -> dict[str, object]:
        return {"task": self.task, "passed": self.passed, "calls": [c.as_dict() for c in self.calls], "world_hash": self.world_hash}


class BankProblem(Exception):
    """The bank itself is broken for this task (a reference that fails)."""


def run_pair(setup: Program | None, program: Program, limits: Limits) -> tuple[RunResult | None, RunResult]:
    """Run `setup` (output discarded) then `program` in one namespace."""
    session = Session(limits)
    first = session.execute(setup) if setup is not None else None
    if first is not None and first.error is not None:
        return first, first
    return first, session.execute(program)


@dataclass
class AlienCodeGrader:
    world: World
    bank: Bank
    limits: Limits = field(default_factory=Limits)
    _programs: dict[tuple[str, str], Program] = field(default_factory=dict, repr=False)
    _expected: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def compiled(self, source: str, role: str) -> Program:
        """Compile bank code once (calls, references, prediction programs)."""
        key = (role, source)
        if key not in self._programs:
            self._programs[key] = compile_source(source, self.world, self.limits)
        return self._programs[key]

    def expected(self, task: Task) -> list[str]:
        """The expected output of each call (or of the whole program)."""
        if task.id in self._expected:
            return self._expected[task.id]
        if task.kind == "prediction":
            result = Session(self.limits).execute(self.compiled(task.program, "program"))
            outputs = [result.text()]
        else:
            try:
                reference = self.compiled(task.reference, "reference")
            except AlienSyntaxError as exc:
                raise BankProblem(f"task {task.id}: the reference does not compile: {exc}") from None
            outputs = []
            if task.whole_program:
                result = Session(self.limits).execute(reference)
                if result.error:
                    raise BankProblem(f"task {task.id}: the reference fails: {result.error}")
                outputs.append(result.output)
            for call in task.calls:
                _, result = run_pair(reference, self.compiled(call, "call"), self.limits)
                if result.error:
                    raise BankProblem(f"task {task.id}: the reference fails on a call: {result.error}")
                outputs.append(result.output)
        self._expected[task.id] = outputs
        return outputs

    def grade(self, task_id: str, answer: str) -> Grade:
        task = self.bank.task(task_id)
        expected = self.expected(task)
        if task.kind == "prediction":
            ok = same_output(answer, expected[0])
            calls = (CallGrade(ok, "ok" if ok else "wrong output"),)
        else:
            calls = tuple(self._synthesis(task, answer, expected))
        return Grade(task.id, all(c.passed for c in calls), calls, self.world.hash)

    def _synthesis(self, task: Task, answer: str, expected: list[str]):
        try:
            submission = compile_source(answer, self.world, self.limits)
        except AlienSyntaxError as exc:
            return [CallGrade(False, str(exc))] * len(expected)
        if task.whole_program:
            result = Session(self.limits).execute(submission)
            return [self._judge(result, expected[0])]
        out = []
        for call, want in zip(task.calls, expected):
            setup, result = run_pair(submission, self.compiled(call, "call"), self.limits)
            if setup is not None and setup.error is not None:
                out.append(CallGrade(False, f"the answer itself fails: {setup.error}"))
            else:
                out.append(self._judge(result, want))
        return out

    @staticmethod
    def _judge(result: RunResult, want: str) -> CallGrade:
        if result.error is not None:
            return CallGrade(False, str(result.error))
        if same_output(result.output, want):
            return CallGrade(True, "ok")
        return CallGrade(False, "wrong output")
