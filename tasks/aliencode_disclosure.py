"""What an AlienCode task shows a system, and checks that it gives nothing away.

A system sees a task's prompt, its example (a call, or example inputs shown as
values) and, for a prediction task, the program. None of it may be a private
call or input table, and none of it may state an expected output.
"""

from __future__ import annotations

import re

from aliencode import AlienSyntaxError, Limits, Session, World, compile_source

from .aliencode_grading import manual_world
from .bank import Task
from .compare import normalise

# An output shorter than this is a word or number any prose may hold by chance
# ("2", "x"); longer ones must not appear in what a task shows.
MIN_STATED = 2


def input_values(table: dict[str, str], world: World, limits: Limits) -> dict[str, str]:
    """Each input's value as the manual prints it inside a list (repr-like:
    `[3, 1]`, `'ab'`), computed with the manual's semantics."""
    manual = manual_world(world)
    out = {}
    for name, expr in table.items():
        try:
            program = compile_source(
                f"{world.surface('EMIT')}({world.surface('STRAND')}(({expr})))", manual, limits
            )
            with Session(limits) as session:
                result = session.execute(program)
        except AlienSyntaxError as exc:
            out[name] = f"<{exc}>"
            continue
        out[name] = result.output[1:-1] if result.error is None else f"<{result.error}>"
    return out


def describe_inputs(table: dict[str, str], world: World, limits: Limits) -> str:
    """`xs = [3, 1, 2], n = 4`: a binding as a system is shown it."""
    return ", ".join(
        f"{name} = {value}" for name, value in input_values(table, world, limits).items()
    )


def shown_text(task: Task, world: World, limits: Limits) -> str:
    """Everything a system is shown of the task besides the manual."""
    parts = [task.prompt, task.example, task.program]
    if task.example_inputs:
        parts.append(describe_inputs(task.example_inputs, world, limits))
    return "\n".join(p for p in parts if p)


def _code(text: str) -> str:
    return re.sub(r"\s+", "", text)


def leaks(task: Task, expected: list[str], world: World, limits: Limits) -> list[str]:
    """Problems with what the task shows: a private call or input shown as
    the example, an expected output stated."""
    problems = []
    if task.example and any(_code(task.example) == _code(call) for call in task.calls):
        problems.append(f"task {task.id}: the example is one of the private calls")
    if task.example_inputs:
        if list(task.example_inputs) != list(task.inputs[0]):
            problems.append(
                f"task {task.id}: example_inputs binds {list(task.example_inputs)}, the inputs "
                f"bind {list(task.inputs[0])}"
            )
        shown = input_values(task.example_inputs, world, limits)
        if any(input_values(table, world, limits) == shown for table in task.inputs):
            problems.append(
                f"task {task.id}: the example inputs are one of the private input tables"
            )
    text = shown_text(task, world, limits)
    for output in dict.fromkeys(expected):
        stated = "\n".join(normalise(output))
        if len(stated) >= MIN_STATED and re.search(
            r"(?<![\w.])" + re.escape(stated) + r"(?![\w.])", text
        ):
            problems.append(
                f"task {task.id}: what the task shows states an expected output ({stated!r})"
            )
            break
    return problems
