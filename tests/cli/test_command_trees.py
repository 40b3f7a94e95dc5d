"""`aliencode` and `alienlogic` offer the same commands with the same flags,
defaults, exit statuses and JSON style, but for the differences listed here
as intended. A command or option added to one language only, or a default
that drifts, fails `test_the_two_command_trees_differ_only_as_intended`
until it is listed below with its reason.
"""

from __future__ import annotations

import json

import click
import pytest
from alienworlds.cli.aliencode import main as aliencode
from alienworlds.cli.alienlogic import cli as alienlogic
from alienworlds.cli.shared import json_text
from click.testing import CliRunner

CLIS = {"aliencode": aliencode, "alienlogic": alienlogic}

# The command that runs what a participant writes: a program, or a proof.
SAME_SLOT = {"aliencode": {"run": "run|check"}, "alienlogic": {"check": "run|check"}}

# (language that has it, command, option or None for the whole command): why
INTENDED = {
    ("aliencode", "port", None): "the porting compiler exists for programs only",
    ("aliencode", "world compare", None): "rule expressions compared on values (AlienCode rules)",
    ("alienlogic", "certify", None): "unprovability certificates exist for proofs only",
    ("alienlogic", "prove", None): "the prover exists for proofs only",
    ("aliencode", "run|check", "--max-steps"): "programs have a step budget; proofs do not",
    ("alienlogic", "run|check", "--detail"): "a rejected proof can name the broken rule",
    ("alienlogic", "world check", "--no-prover"): "the bank audit's prover is optional",
    ("aliencode", "world check", "--jobs"): "the battery of adaptive answers is judged in "
    "processes (AlienLogic's whole audit takes seconds)",
    **{
        (language, "world generate", option): "the generator's knobs (generate/knobs.py)"
        for language, options in {
            "aliencode": ("--altered", "--red-herrings", "--scoped", "--renamed", "--tasks"),
            "alienlogic": (
                "--patches",
                "--theorems",
                "--unprovable",
                "--first-order",
                "--examples",
            ),
        }.items()
        for option in options
    },
}


def _option(param: click.Parameter) -> dict[str, object]:
    default = param.default
    return {
        "name": param.name,
        "kind": param.param_type_name,
        "type": type(param.type).__name__,
        "default": "<computed>" if callable(default) else repr(default),
        "required": param.required,
        "flag": getattr(param, "is_flag", False),
        "multiple": param.multiple,
        "metavar": param.metavar,
    }


def command_tree(language: str) -> dict[str, dict[str, dict[str, object]]]:
    """Every command path of a language's CLI (the shared slot's name for
    run/check), with its parameters by their first spelling."""
    out = {}

    def walk(command: click.Command, path: tuple[str, ...]) -> None:
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), (*path, name))
            return
        name = " ".join(path)
        name = SAME_SLOT[language].get(name, name)
        out[name] = {p.opts[0]: _option(p) for p in command.params}

    walk(CLIS[language], ())
    return out


def differences(trees: dict[str, dict]) -> dict[tuple[str, str, str | None], str]:
    """(language, command, option) -> what differs, for all but INTENDED."""
    code, logic = trees["aliencode"], trees["alienlogic"]
    found = {}
    for command in sorted(set(code) | set(logic)):
        for language, mine, theirs in (("aliencode", code, logic), ("alienlogic", logic, code)):
            if command in mine and command not in theirs:
                found[(language, command, None)] = "only here"
        if command not in code or command not in logic:
            continue
        for option in sorted(set(code[command]) | set(logic[command])):
            a, b = code[command].get(option), logic[command].get(option)
            if a is None or b is None:
                language = "aliencode" if b is None else "alienlogic"
                found[(language, command, option)] = "only here"
            elif a != b:
                found[("both", command, option)] = f"aliencode {a} != alienlogic {b}"
    return {key: what for key, what in found.items() if key not in INTENDED}


def test_the_two_command_trees_differ_only_as_intended():
    trees = {language: command_tree(language) for language in CLIS}
    assert differences(trees) == {}
    shared = set(trees["aliencode"]) & set(trees["alienlogic"])
    expected = {"run|check", "grade", "tasks", "manual", "repl", "world check"}
    expected |= {"world generate", "episode", "report", "sweep", "play"}
    assert expected <= shared


def test_every_intended_difference_is_still_there():
    trees = {language: command_tree(language) for language in CLIS}
    for language, command, option in INTENDED:
        tree = trees[language]
        assert command in tree, (language, command)
        assert option is None or option in tree[command], (language, command, option)


def test_drift_is_caught():
    trees = {language: command_tree(language) for language in CLIS}
    drifted = json.loads(json.dumps(trees))
    drifted["alienlogic"]["grade"]["--world"]["required"] = True
    drifted["aliencode"]["tasks"]["--limit"] = drifted["aliencode"]["tasks"]["--world"]
    assert differences(drifted) == {
        ("both", "grade", "--world"): "aliencode "
        + str(trees["aliencode"]["grade"]["--world"])
        + " != alienlogic "
        + str(drifted["alienlogic"]["grade"]["--world"]),
        ("aliencode", "tasks", "--limit"): "only here",
    }


@pytest.mark.parametrize("language", sorted(CLIS))
def test_json_is_printed_in_one_style(language):
    done = CliRunner().invoke(CLIS[language], ["tasks", "--json"])
    assert done.exit_code == 0, done.output
    assert done.output == json_text(json.loads(done.output)) + "\n"


@pytest.mark.parametrize("language", sorted(CLIS))
def test_grade_defaults_to_the_main_world_and_exits_alike(language):
    done = CliRunner().invoke(CLIS[language], ["grade", "--task", "NO-SUCH-TASK"], input="x")
    assert done.exit_code == 2
    assert "NO-SUCH-TASK" in done.output and "main" in done.output
