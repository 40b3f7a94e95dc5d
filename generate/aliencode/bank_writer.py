"""Writing a generated bank as TOML, the same bytes every time.

Code is written as multi-line literal strings (`'''`, read back exactly)
when it holds no `'''` and no control character but newlines; anything
else as a basic string (generate/toml_string.py).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from alienworlds.generate.toml_string import basic_string as _string
from alienworlds.tasks.bank import BANDS, FAMILIES, Task

from .bank import KEYSTONE, BankDraw
from .instances import MIN_DISTINCT, RUNS


def _code(text: str) -> str:
    if (
        "\n" in text
        and "'''" not in text
        and not text.endswith("'")
        and all(c == "\n" or " " <= c != "\x7f" for c in text)
    ):
        return "'''\n" + text + "'''"
    return _string(text)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _string(key)


def _table(values: Mapping[str, object]) -> str:
    return (
        "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in values.items()) + " }"
        if values
        else "{}"
    )


def _value(value: object) -> str:
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        return _table(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _counts(names: tuple[str, ...], values: list[str]) -> dict[str, int]:
    counts = Counter(values)
    return {name: counts[name] for name in names if counts[name]}


def _task(task: Task, template: str) -> list[str]:
    lines = ["", "[[tasks]]", f"id = {_string(task.id)}", f"template = {_string(template)}"]
    for key in ("kind", "band", "family", "representation", "depth", "prompt"):
        lines.append(f"{key} = {_string(getattr(task, key))}")
    if task.calls:
        lines.append(f"example = {_string(task.example)}")
        lines.append("calls = [")
        lines += [f"    {_string(call)}," for call in task.calls]
        lines.append("]")
    else:
        lines.append(f"example_inputs = {_table(task.example_inputs)}")
        lines.append("inputs = [")
        lines += [f"    {_table(table)}," for table in task.inputs]
        lines.append("]")
    lines.append(f"reference = {_code(task.reference)}")
    lines.append(f"naive = {_code(task.naive)}")
    lines.append("variants = [")
    lines += [f"{_code(v)}," for v in task.variants]
    lines.append("]")
    return lines


def bank_toml(
    world_name: str,
    drawn: BankDraw,
    version: str,
    settings: str,
    world_draws: int,
    world_rejections: Mapping[str, int],
    rules: int,
    red_herrings: int,
    reported: tuple[str, ...] = (),
) -> str:
    tasks = [c.task for c in drawn.tasks]
    lines = [
        f"# A generated AlienCode task bank: alienworlds generator version {version} ({settings}).",
        "# The same seed and version give this file byte for byte. It holds every task's",
        "# reference solution: keep it private, with its world and its seed.",
        "",
        "format = 1",
        f"world = {_string(world_name)}",
        f"generator = {_string(version)}",
        "",
        "[generation]                 # how the bank was drawn (see docs/generated-worlds.md)",
        f"world_draws = {world_draws}",
        f"worlds_rejected = {_table(dict(sorted(world_rejections.items())))}",
        f"templates_tried = {drawn.tried}",
        f"templates_discarded = {_table(dict(sorted(drawn.discarded.items())))}",
        "",
        "[audit]",
        f"tasks = {len(tasks)}",
        f"kinds = {_table({'synthesis': len(tasks)})}",
        f"families = {_table(_counts(FAMILIES, [t.family for t in tasks]))}",
        f"bands = {_table(_counts(BANDS, [t.band for t in tasks]))}",
        f"min_runs = {RUNS}",
        f"min_distinct_outputs = {MIN_DISTINCT}",
        "min_variants = 2",
        "max_naive_pass = 0",
        f"keystone = {_table({'targets': list(KEYSTONE), 'min_tasks': drawn.keystone})}",
        "examples_per_band = 2",
        f"rules = {rules}",
        f"red_herrings = {red_herrings}",
        f"report_only = {_value(list(reported))}",
    ]
    for k, example in enumerate(drawn.examples, 1):
        lines += [
            "",
            "[[examples]]",
            f'id = "E{k:02d}"',
            f"band = {_string(example.template.band)}",
            f"prompt = {_string(example.prompt)}",
            f"program = {_code(example.program)}",
            f"rules = {_value(example.rules)}",
        ]
    for candidate in drawn.tasks:
        lines += _task(candidate.task, candidate.template.id)
    return "\n".join(lines) + "\n"
