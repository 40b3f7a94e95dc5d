"""Each language's :help, :history and its file, and dumb terminals
(TERM=dumb: line by line with `...` continuation prompts)."""

import io
import re

import pytest
from alienworlds.repl.aliencode_backend import AlienCodeBackend
from alienworlds.repl.alienlogic_backend import AlienLogicBackend
from alienworlds.repl.shell import Shell, continuation
from hypothesis import given
from hypothesis import strategies as st

from aliencode.world_schema import load
from alienlogic import load_world

PROOF = "PROOF\npremises: AND(p, q)\ngoal: q\n1. AND(p, q) [premise]\n2. q [AND_E2 1]\nEND"


def transcript(backend, lines):
    out = io.StringIO()
    Shell(backend, out=out).run_lines(line + "\n" for line in lines)
    return out.getvalue()


def test_each_language_has_its_own_help():
    code = transcript(AlienCodeBackend(load("standard")), [":help"]).splitlines()
    logic = transcript(AlienLogicBackend(load_world("standard")), [":help"]).splitlines()
    assert code[0].startswith("Type code") and ":units           probe units" in code[-1]
    assert logic[0].startswith("Type or paste a proof from PROOF to END")
    assert not any("a line ending in ':' opens a block" in line for line in logic)
    assert any(line.startswith(":detail") for line in logic)
    for lines in (code, logic):
        assert any(line.startswith(":history [N]") for line in lines)


def test_history_numbers_entries_and_shows_blocks_whole():
    backend = AlienLogicBackend(load_world("standard"))
    out = transcript(backend, [*PROOF.split("\n"), ":world", ":history 3"]).splitlines()
    at = out.index("    1  PROOF")
    assert out[at + 1 : at + 6] == [f"       {line}" for line in PROOF.split("\n")[1:]]
    assert out[at + 6 :] == [
        "    2  :world",
        "    3  :history 3",
        "history: this session only (not saved when input is not a terminal)",
    ]


@given(st.integers(min_value=0, max_value=30), st.integers(min_value=0, max_value=30))
def test_history_shows_the_last_n(entries, n):
    lines = [f"EMIT({k})" for k in range(entries)] + [f":history {n}"]
    out = transcript(AlienCodeBackend(load("standard")), lines).splitlines()
    numbered = [line for line in out if re.match(r"^ {0,4}\d+  ", line)]
    total = entries + 1  # the :history command is an entry too
    want = list(range(total - min(n, total) + 1, total + 1)) if n else []
    assert [int(line.split()[0]) for line in numbered] == want


@pytest.mark.parametrize("bad", ["x", "-1", "1e3", "9999999"])
def test_history_refuses_a_bad_count(bad):
    out = transcript(AlienCodeBackend(load("standard")), [f":history {bad}"])
    assert out == "usage: :history [N]\n"


def test_continuation_prompt_is_as_wide_as_the_prompt():
    assert continuation(">>> ") == "... "
    assert continuation("proof> ") == "...... "


def test_dumb_terminal_prompts_each_line_and_keeps_the_file(tmp_path, terminal):
    child = terminal.start("aliencode", "standard", term="dumb")
    child.expect("Ctrl-D to leave")
    child.expect_exact(">>> ")
    child.send("CRAFT f(n):\r")
    child.expect_exact("... ")
    child.send("    DELIVER PARE(n, 2)\r")
    child.expect_exact("... ")
    child.send("\r")
    child.expect(r"\(0 units\)")
    child.expect_exact(">>> ")
    child.send("EMIT(f(21))\r")
    child.expect(r"42\s+\(1 unit\)")
    child.send(":history\r")
    child.expect_exact("    1  CRAFT f(n):")
    child.expect_exact("           DELIVER PARE(n, 2)")
    child.expect_exact("    2  EMIT(f(21))")
    path = tmp_path / "alienworlds" / "aliencode_history"
    child.expect_exact(f"history file: {path}")
    child.expect_exact(">>> ")
    terminal.leave(child)
    assert "+CRAFT f(n):\n+    DELIVER PARE(n, 2)" in path.read_text()


def test_dumb_terminal_proof_prompts(terminal):
    child = terminal.start("alienlogic", "standard", term="dumb")
    child.expect_exact("proof> ")
    for line in PROOF.split("\n"):
        child.send(line + "\r")
        if line != "END":
            child.expect_exact("...... ")
    child.expect(r"accepted \(2 steps\)")
    child.expect_exact("proof> ")
    terminal.leave(child)


def test_history_in_a_full_terminal_reads_earlier_sessions(tmp_path, terminal):
    first = terminal.start("aliencode", "standard")
    first.expect(">>>")
    first.send("EMIT(7)\r")
    first.expect(r"7\s+\(1 unit\)")
    first.expect(">>>")
    terminal.leave(first)
    second = terminal.start("aliencode", "standard")
    second.expect(">>>")
    second.send(":history\r")
    second.expect_exact("    1  EMIT(7)")
    second.expect_exact("    2  :history")
    second.expect_exact(f"history file: {tmp_path / 'alienworlds' / 'aliencode_history'}")
    second.expect(">>>")
    terminal.leave(second)
