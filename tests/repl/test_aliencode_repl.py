"""`aliencode repl`: completeness by the real parser, persistent state,
commands, line mode through a pipe, and a real pseudo-terminal."""

import subprocess
import sys

import pytest
from alienworlds.repl.aliencode_backend import AlienCodeBackend
from alienworlds.repl.shell import COMPLETE, INCOMPLETE, INVALID

from aliencode.world_schema import load


@pytest.fixture
def backend():
    return AlienCodeBackend(load("standard"))


@pytest.mark.parametrize(
    "text,state",
    [
        ("EMIT(1)", COMPLETE),
        ("EMIT(1,", INCOMPLETE),
        ("CRAFT f(x):", INCOMPLETE),
        ("CRAFT f(x):\n    DELIVER x", INCOMPLETE),
        ("CRAFT f(x):\n    DELIVER x\n", COMPLETE),
        ("UPON YES:\n    EMIT(1)\nDEFAULT:", INCOMPLETE),
        ("EMIT(1))", INVALID),
        ('EMIT("open', INVALID),
        ("", COMPLETE),
        # nested blocks typed line by line read on until the blank line ends them
        ("CRAFT f(xs):\n    SET t AS 0\n    SWEEP x IN xs:", INCOMPLETE),
        ("CRAFT f(xs):\n    SWEEP x IN xs:\n        UPON x:", INCOMPLETE),
        ("CRAFT f(xs):\n    SWEEP x IN xs:\n        UPON x:\n            EMIT(x)", INCOMPLETE),
        (
            "CRAFT f(xs):\n    SWEEP x IN xs:\n        UPON x:\n            EMIT(x)\n    DELIVER 1",
            INCOMPLETE,
        ),
        (
            "CRAFT f(xs):\n    SWEEP x IN xs:\n        UPON x:\n            EMIT(x)\n    DELIVER "
            "1\n",
            COMPLETE,
        ),
        ("CRAFT f(xs):\n    EMIT(SHATTER(1,", INCOMPLETE),
        ("CRAFT f(xs):\n    EMIT(1))", INVALID),
        ("CRAFT f(xs):\n  EMIT(1)\n    EMIT(2)", INVALID),
        ("CRAFT f(xs):\n    DELIVER 1\n  EMIT(2)", INVALID),
        ("CRAFT f(xs):\nEMIT(1)", INVALID),
    ],
)
def test_completeness_uses_the_parser(backend, text, state):
    assert backend.state(text) == state


def test_state_persists_and_reset_clears(backend):
    assert backend.run("SET x AS 2") == "(0 units)"
    assert backend.run("EMIT(x, x)") == "2 2\n(2 units)"
    assert backend.command("units", "") == "2 probe units over 2 entries"
    backend.reset()
    assert backend.run("EMIT(x)").startswith("[AlienError] NameError")


def test_world_line_shows_no_rules():
    line = AlienCodeBackend(load("demo")).world_line()
    assert "demo" in line and "sha256:" in line and "PLUCK" not in line


SCRIPT = """SET x AS 2
CRAFT sq(n):
    DELIVER PARE(n, n)

EMIT(sq(x))
EMIT(nope)
:units
:load {file}
:reset
EMIT(x)
:quit
EMIT("never")
"""


def test_line_mode_through_a_pipe(tmp_path):
    prog = tmp_path / "p.alien"
    prog.write_text('EMIT("loaded")\n')
    proc = subprocess.run(
        [sys.executable, "-m", "alienworlds.cli.aliencode", "repl", "--world", "standard"],
        input=SCRIPT.format(file=prog),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "(0 units)",
        "(0 units)",
        "4",
        "(1 unit)",
        "[AlienError] NameError: name 'nope' is not defined (line 1)",
        "(1 unit)",
        "2 probe units over 4 entries",
        "loaded",
        "(1 unit)",
        "session cleared",
        "[AlienError] NameError: name 'x' is not defined (line 1)",
        "(1 unit)",
    ]


def test_through_a_pseudo_terminal(tmp_path, terminal):
    child = terminal.start("aliencode", "standard")
    child.expect("Ctrl-D to leave")
    child.expect(">>>")
    child.send("EMIT(SHATTER(2, 3))\r")
    child.expect(r"5\s+\(1 unit\)")
    child.expect(">>>")
    child.send("CRAFT f(n):\r")
    child.send("DELIVER PARE(n, 2)\r")  # auto-indented inside the block
    child.send("\r")  # a blank line ends the block
    child.expect(r"\(0 units\)")
    child.expect(">>>")
    child.send("EMIT(f(21))\r")
    child.expect(r"42\s+\(1 unit\)")
    child.expect(">>>")
    child.send("EMIT(PLUCK(STRAND(), 0))\r")
    child.expect(r"IndexError: PLUCK: index out of range")
    child.expect(">>>")
    terminal.leave(child)
    history = (tmp_path / "alienworlds" / "aliencode_history").read_text()
    assert "+CRAFT f(n):" in history and "+    DELIVER PARE(n, 2)" in history
