"""How the porting tests read a bank task, whichever bank format it has
(whole-program tasks with private `inputs` and public `example_inputs`, or
not)."""

from __future__ import annotations


def field(task, name: str, default=None):
    value = getattr(task, name, None)
    if value is None:
        value = task.extra.get(name)
    return default if value is None else value


def bindings(table: dict[str, str]) -> list[str]:
    return [f"SET {name} AS {expr}" for name, expr in table.items()]


def port_naive(porter, task):
    """Port a task's naive solution with what the task shows of its inputs:
    the example call, or the example input bindings (values computed under
    the manual's semantics), or nothing for a closed whole program."""
    if task.calls:
        return porter.port(task.naive, [task.example] if task.example else [])
    inputs = field(task, "inputs", ())
    if inputs:
        shown = field(task, "example_inputs", {}) or inputs[0]
        return porter.port(task.naive, bindings(shown), callers="manual")
    return porter.port(task.naive, [])
