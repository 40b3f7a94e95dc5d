"""Grading AlienLogic answers exactly (docs/alienlogic.md, docs/tasks.md).

The grader takes the model's raw text and reads it through
`tasks.alienlogic_reader` (one proof block, or the refusal line
`ANSWER: UNPROVABLE`; both, several proofs or neither fail). A provable
theorem passes only with a proof the world's checker accepts for exactly
the task's premises (as a multiset) and goal; an unprovable one only with a
clean refusal. The verdict is a `tasks.grade.Grade`.

The bank side: `logic_tasks(bank)` reads the AlienLogic fields that
`tasks.bank.load_bank` keeps in `Task.extra` (premises, goal, provable,
certificate) into `LogicTask`s, reporting every problem as a BankError.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from alienworlds.ruleset.world import World

from alienlogic import ProofSyntaxError, Theorem, check, compile_world, parse_formula

from .alienlogic_reader import RECORDED_REFUSAL, read_answer
from .bank import Bank, BankError, Task
from .grade import Grade


@dataclass(frozen=True)
class LogicTask:
    id: str
    family: str
    theorem: Theorem
    provable: bool
    reference: str = ""
    naive: str = ""
    certificate: Path | None = None
    prompt: str = ""


def _premises(raw: object) -> list[str]:
    """A list of formula texts, or one comma-separated string of them."""
    if isinstance(raw, str):
        parts, depth, current = [], 0, ""
        for ch in raw:
            if ch == "," and depth == 0:
                parts.append(current)
                current = ""
                continue
            depth += ch == "("
            depth -= ch == ")"
            current += ch
        parts.append(current)
        return [p.strip() for p in parts if p.strip()]
    if isinstance(raw, (list, tuple)) and all(isinstance(p, str) for p in raw):
        return list(raw)
    raise TypeError("premises must be a list of formulas")


def logic_task(task: Task, bank_source: str) -> LogicTask:
    """The AlienLogic view of a bank task; raise BankError naming the problem."""
    where = f"{bank_source}: task {task.id}"
    problems = []
    extra = task.extra
    try:
        premises = tuple(parse_formula(p) for p in _premises(extra.get("premises", [])))
        goal = parse_formula(str(extra["goal"]))
    except KeyError:
        raise BankError([f"{where}: an AlienLogic task needs 'goal'"]) from None
    except (ProofSyntaxError, TypeError) as exc:
        raise BankError([f"{where}: bad premises or goal: {exc}"]) from None
    provable = extra.get("provable", True)
    if not isinstance(provable, bool):
        problems.append(f"{where}: key 'provable': expected true or false")
    certificate = extra.get("certificate")
    if provable is True and not task.reference:
        problems.append(f"{where}: a provable task needs a 'reference' proof")
    if provable is False and not isinstance(certificate, str):
        problems.append(
            f"{where}: an unprovable task needs a 'certificate' (a path relative to the bank)"
        )
    if task.kind != "proof":
        problems.append(f"{where}: key 'kind': an AlienLogic task has kind = \"proof\"")
    if problems:
        raise BankError(problems)
    path = Path(bank_source).parent / certificate if isinstance(certificate, str) else None
    return LogicTask(
        task.id,
        task.family,
        Theorem(premises, goal),
        provable is True,
        task.reference,
        task.naive,
        path,
        task.prompt,
    )


def logic_tasks(bank: Bank) -> list[LogicTask]:
    out, problems = [], []
    for task in bank.tasks:
        try:
            out.append(logic_task(task, bank.source))
        except BankError as exc:
            problems += exc.problems
    if problems:
        raise BankError(problems)
    return out


class AlienLogicGrader:
    """Grades answers to one bank's tasks in one world."""

    def __init__(self, world: World, bank: Bank) -> None:
        self.world = world
        self.compiled = compile_world(world)
        self.bank = bank
        self.tasks = {t.id: t for t in logic_tasks(bank)}

    def grade(self, task_id: str, text: str) -> Grade:
        """The verdict on a reply (the model's raw text) to task `task_id`."""
        task = self.tasks[task_id]
        reading = read_answer(text)
        h = self.world.hash

        def result(passed: bool, reason: str, verdict=None) -> Grade:
            answer = RECORDED_REFUSAL if reading.refused else reading.answer
            return Grade(
                task.id, passed, reason, h, answer.strip() if answer else None, verdict=verdict
            )

        if reading.problem:
            return result(False, reading.problem)
        if reading.refused:
            if task.provable:
                return result(False, "refused, but the theorem is provable in this world")
            return result(True, "a clean refusal of an unprovable theorem")
        verdict = check(reading.answer, self.compiled, task=task.theorem)
        public = verdict.as_dict()
        if not task.provable:
            if verdict.accepted:
                return result(
                    False,
                    "the checker accepts this proof of a theorem the bank designates "
                    "unprovable; the bank is wrong",
                    public,
                )
            return result(
                False, "the theorem is unprovable in this world; only a refusal scores", public
            )
        if verdict.accepted:
            return result(True, "the proof is accepted", public)
        where = f" at step {verdict.rejected_step}" if verdict.rejected_step is not None else ""
        return result(
            False,
            f"the proof is rejected{where}: {verdict.reason_class} {verdict.reason_id}",
            public,
        )
