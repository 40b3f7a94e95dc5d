"""The shared commands are written once (cli/scaffold.py): both CLIs take
them from the scaffold, and a language that brings only a `LanguageCommands`
gets every one of them, with the scaffold's exits, JSON and closing lines."""

from __future__ import annotations

import json
from dataclasses import replace

import click
import pytest
from alienworlds.cli import scaffold
from alienworlds.cli.aliencode import COMMANDS as ALIENCODE
from alienworlds.cli.aliencode import main as aliencode
from alienworlds.cli.alienlogic import cli as alienlogic
from alienworlds.cli.scaffold import BadInput, LanguageCommands, Refused, Report
from alienworlds.generate.knobs import Knob, KnobTable
from alienworlds.tasks.bank import bank_path
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

SHARED = ("grade", "tasks", "manual", "repl", "world check", "world generate")
DEMO_BANK = str(bank_path("aliencode", "demo"))


def command(group: click.Group, path: str) -> click.Command:
    ctx = click.Context(group)
    for name in path.split():
        group = group.get_command(ctx, name)
    return group


@pytest.mark.parametrize("group", [aliencode, alienlogic], ids=["aliencode", "alienlogic"])
@pytest.mark.parametrize("path", SHARED)
def test_both_clis_take_the_shared_commands_from_the_scaffold(group, path):
    assert command(group, path).callback.__module__ == scaffold.__name__


def toy(**hooks: object) -> LanguageCommands:
    """A language made of AlienCode's worlds and stub hooks."""
    table = KnobTable("toy", (Knob("size", 2, 1, 9, "How big."),), lambda get: [])
    own = {
        "name": "toy",
        "version": "0.0",
        "summary": "Toy.",
        "knobs": table,
        "check_options": (),
        "generate_options": (),
        "describe_world": lambda world: Report(fields={"rules": []}, lines=["toy world"]),
    }
    return replace(ALIENCODE, **{**own, **hooks})


def test_a_language_with_only_its_commands_entry_has_every_shared_command():
    group = scaffold.language_group(toy())
    for path in SHARED:
        assert command(group, path).callback.__module__ == scaffold.__name__
    help_text = CliRunner().invoke(group, ["world", "generate", "--help"]).output
    assert "--size N" in help_text and "1<=x<=9" in help_text


problems = st.lists(st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8))


@settings(max_examples=examples(40), deadline=None)
@given(own=problems, audited=problems, as_json=st.booleans())
def test_world_check_closes_alike_for_any_problems(own, audited, as_json):
    def audit(world, bank, so_far, options):
        return Report(problems=so_far + audited, fields={"audited": True}, lines=["audit"])

    commands = toy(
        describe_world=lambda world: Report(problems=own, fields={"rules": []}, lines=["toy"]),
        audit_bank=audit,
    )
    args = ["world", "check", "demo", "--bank", DEMO_BANK] + (["--json"] if as_json else [])
    result = CliRunner().invoke(scaffold.language_group(commands), args)
    found = own + audited
    assert result.exit_code == (1 if found else 0), result.output
    if as_json:
        data = json.loads(result.output)
        assert list(data) == ["world", "hash", "ok", "problems", "rules", "bank_audit", "audited"]
        assert data["problems"] == found and data["ok"] == (not found)
        return
    lines = result.output.splitlines()
    assert lines[:2] == ["toy", "audit"]
    assert lines[2:-1] == [f"problem: {p}" for p in found]
    n = len(found)
    assert lines[-1] == (f"{n} problem{'s' if n != 1 else ''}" if n else "ok")


@settings(max_examples=examples(30), deadline=None)
@given(said=st.lists(st.text(st.characters(categories=("L",)), min_size=1), min_size=1))
def test_bad_input_is_every_problem_on_its_line_and_exit_2(said):
    def task_ids(bank):
        raise BadInput(*said)

    group = scaffold.language_group(toy(task_ids=task_ids))
    result = CliRunner().invoke(group, ["grade", "--task", "T1", "--bank", DEMO_BANK], input="x")
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"toy: {line}" for line in said]


def test_a_refusal_is_one_line_and_exit_1_and_the_knobs_arrive(tmp_path):
    seen = {}

    def generate(seed, knobs, out_dir, options, phases):
        seen.update(seed=seed, knobs=knobs, out=out_dir, options=dict(options))
        raise Refused("no world meets these knobs")

    group = scaffold.language_group(toy(generate=generate))
    args = ["world", "generate", "--seed", "s", "--size", "7", "--out", str(tmp_path)]
    result = CliRunner().invoke(group, args)
    assert result.exit_code == 1
    assert result.output == "toy: no world meets these knobs\n"
    assert seen == {"seed": "s", "knobs": {"size": 7}, "out": str(tmp_path), "options": {}}
