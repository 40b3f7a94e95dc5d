"""The walkthrough of docs/worlds.md is a real session: every command of it
runs, in a copy of examples/, and prints what the page shows (`...` stands
for what varies, such as times)."""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "worlds.md"


def walkthrough(language: str) -> str:
    """The console blocks of the walkthrough's part for `language`, in order."""
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index("## Walkthrough") :]
    section = section[: section.index("\n## ", 1)]
    part = section[section.index(f"### {language}") :]
    part = part[: part.index("\n### ", 1)] if "\n### " in part[1:] else part
    return "".join(re.findall(r"```console\n(.*?)```", part, re.S))


def session(console: str) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) pairs of console text."""
    steps: list[tuple[str, list[str]]] = []
    for line in console.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def matches(expected: list[str], actual: list[str]) -> bool:
    patterns = [re.escape(line).replace(re.escape("..."), ".*") for line in expected]
    return len(patterns) == len(actual) and all(
        re.fullmatch(p, a) for p, a in zip(patterns, actual, strict=True)
    )


@pytest.mark.parametrize("language", ["AlienCode", "AlienLogic"])
def test_every_command_of_the_walkthrough_prints_what_the_page_shows(language, tmp_path):
    steps = session(walkthrough(language))
    commands = [command for command, _ in steps]
    assert any(" run " in c or " check " in c for c in commands)
    for word in ("world check", "manual", "grade"):
        assert any(word in c for c in commands), word
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    # the commands the venv installed, as a newcomer's shell finds them
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    cwd = tmp_path
    for command, expected in steps:
        if command.startswith("cd "):
            cwd = cwd / shlex.split(command)[1]
            assert cwd.is_dir(), command
            continue
        done = subprocess.run(
            ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
        )
        assert "Traceback" not in done.stderr, (command, done.stderr)
        assert matches(expected, done.stdout.splitlines()), (command, done.stdout)


def test_the_files_the_page_shows_are_the_examples():
    """`cat FILE` shows the file as it is in examples/ (the test above runs
    the same commands; this says which file differs when one does)."""
    for language, folder in (("AlienCode", "aliencode"), ("AlienLogic", "alienlogic")):
        for command, expected in session(walkthrough(language)):
            if command.startswith("cat "):
                path = ROOT / "examples" / "walkthrough" / folder / command.split()[1]
                assert path.read_text(encoding="utf-8").splitlines() == expected, path
