"""A plain `aliencode run` imports only what running needs (issue 28):
everything else (the episode, reports, sweeps, the explorer, the task
banks, matplotlib, openai, numpy, ...) loads on first use. Not lark either:
the parser runs on tables derived from the grammar at build time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HELLO = Path(__file__).parents[2] / "examples" / "hello.alien"

# Modules outside the standard library a run may import, by exact name or
# as a package prefix ending in ".".
ALLOWED = (
    "aliencode",
    "aliencode.",
    "alienworlds",
    "alienworlds.cli",
    "alienworlds.cli.aliencode",
    "alienworlds.cli.banks",
    "alienworlds.cli.entry",
    "alienworlds.cli.knob_options",
    "alienworlds.cli.lazy",
    "alienworlds.cli.param_types",
    "alienworlds.cli.scaffold",  # the shared commands, built at start-up; they import when run
    "alienworlds.cli.shared",  # json and click only: options, exit statuses, JSON style
    "alienworlds.cli.streams",
    "alienworlds.ruleset",
    "alienworlds.ruleset.",
    "alienworlds.generate",
    "alienworlds.generate.knobs",
    "click",
    "click.",
    # the interpreter's own start-up: site customisation, the editable install
    "__main__",
    "sitecustomize",
    "_distutils_hack",
    "__editable__",
)

CHILD = """
import sys
from alienworlds.cli.aliencode import entry
try:
    entry(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w", encoding="utf-8") as out:
    out.write("\\n".join(sorted(sys.modules)))
"""


def outside_allow_list(modules: list[str]) -> list[str]:
    stdlib = sys.stdlib_module_names
    return [
        name
        for name in modules
        if name.split(".")[0] not in stdlib
        and not any(
            name == allowed or (allowed.endswith((".", "__")) and name.startswith(allowed))
            for allowed in ALLOWED
        )
    ]


def imported_by(args: list[str], tmp_path: Path) -> list[str]:
    listing = tmp_path / "modules.txt"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(listing), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip(), "the program printed nothing"
    return listing.read_text(encoding="utf-8").split("\n")


@pytest.mark.parametrize("world", ["standard", "main"])
def test_a_plain_run_imports_only_the_allow_list(tmp_path, world):
    modules = imported_by(["run", "--world", world, str(HELLO)], tmp_path)
    assert "aliencode.runtime" in modules  # it did run
    assert outside_allow_list(modules) == []


def test_the_allow_list_refuses_what_a_run_does_not_need():
    found = outside_allow_list(
        [
            "json",
            "aliencode.parser",
            "numpy",
            "lark",
            "alienworlds.episode.runner",
            "alienworlds.tasks",
        ]
    )
    assert found == ["numpy", "lark", "alienworlds.episode.runner", "alienworlds.tasks"]
