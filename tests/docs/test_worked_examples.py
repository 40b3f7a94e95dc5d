"""The worked AlienLogic example of docs/worlds.md is a real session: its
world file and proofs are written out, its commands run, and their output
must be what the page shows."""

import re
import shlex
import shutil
from pathlib import Path

from alienworlds.cli.alienlogic import cli as alienlogic
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]


def worked_example():
    text = (ROOT / "docs" / "worlds.md").read_text(encoding="utf-8")
    section = text[text.index("### A worked example") :]
    world = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    console = re.search(r"```console\n(.*?)```", section, re.S).group(1)
    return world, console


def session(console):
    """(command, expected output lines) pairs of a console block."""
    steps = []
    for line in console.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:].split("  #")[0].strip(), []))
        else:
            steps[-1][1].append(line)
    return steps


def test_the_worked_alienlogic_example_is_true(tmp_path, monkeypatch):
    world, console = worked_example()
    (tmp_path / "tutorial.toml").write_text(world, encoding="utf-8")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    steps = session(console)
    assert len(steps) >= 6
    for command, expected in steps:
        words = shlex.split(command)
        if words[0] == "cat":  # the page shows a file: write it
            (tmp_path / words[1]).write_text("\n".join(expected) + "\n", encoding="utf-8")
            continue
        assert words[0] == "alienlogic"
        result = CliRunner().invoke(alienlogic, words[1:])
        shown = [re.escape(line).replace(re.escape("..."), ".*") for line in expected]
        actual = result.stdout.splitlines()
        assert len(actual) == len(shown) and all(
            re.fullmatch(p, a) for p, a in zip(shown, actual)
        ), (command, actual)
