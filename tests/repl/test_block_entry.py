"""Nested blocks typed line by line: completeness decided as Python's shell
does (read on while the input stopped where more was expected or a block is
open; a blank line ends a block), in a terminal and through a pipe."""

import subprocess
import sys

from alienworlds.repl.aliencode_backend import AlienCodeBackend
from alienworlds.repl.shell import Shell
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode.world_schema import load

THREE_LEVELS = [
    "CRAFT evens(xs):",
    "    SET t AS 0",
    "    SWEEP x IN xs:",
    "        UPON AKIN(RESIDUE(x, 2), 0):",
    "            SET t AS SHATTER(t, x)",
    "    DELIVER t",
    "",
    "EMIT(evens(STRAND(1, 2, 3, 4)))",
]


class Recorder:
    """The AlienCode backend's completeness, recording what would run."""

    language, prompt = "aliencode", ">>> "

    def __init__(self, inner):
        self.inner = inner
        self.entries = []

    def state(self, text):
        return self.inner.state(text)

    def run(self, text):
        self.entries.append(text)
        return ""


def blocks(depth):
    """Random programs of nested CRAFT/SWEEP/UPON/LEST/DEFAULT/WHILE blocks."""
    simple = st.sampled_from(["SET t AS 1", "EMIT(t)", "IDLE", "SET t AS SHATTER(t,\n    2)"])
    if depth == 0:
        return st.lists(simple, min_size=1, max_size=3)
    inner = blocks(depth - 1)
    header = st.sampled_from(["SWEEP x IN STRAND(1, 2):", "UPON t:", "WHILE NO:", "CRAFT g(a):"])

    def compound(parts):
        head, body, tail = parts
        lines = [head, *("    " + line for line in body)]
        if head == "UPON t:" and tail:
            lines += ["DEFAULT:", *("    " + line for line in tail)]
        return lines

    block = st.tuples(header, inner, st.one_of(st.none(), inner)).map(compound)
    return st.lists(st.one_of(simple.map(lambda s: [s]), block), min_size=1, max_size=3).map(
        lambda groups: [line for g in groups for line in g]
    )


@settings(max_examples=examples(60), deadline=None)
@given(st.tuples(st.sampled_from(["SWEEP y IN STRAND(3):", "CRAFT f(t):", "UPON YES:"]), blocks(2)))
def test_a_nested_block_typed_line_by_line_is_one_entry(parts):
    head, body = parts
    program = [head, *("    " + line for line in body)]
    recorder = Recorder(AlienCodeBackend(load("standard")))
    Shell(recorder).run_lines(line + "\n" for line in [*program, "", "EMIT(1)"])
    assert recorder.entries == ["\n".join(program + [""]), "EMIT(1)"]


def test_three_levels_through_a_pipe():
    proc = subprocess.run(
        [sys.executable, "-m", "alienworlds.cli.aliencode", "repl", "--world", "standard"],
        input="\n".join(THREE_LEVELS) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["(0 units)", "6", "(1 unit)"]


def test_three_levels_typed_in_a_terminal(tmp_path, terminal):
    child = terminal.start("aliencode", "standard")
    backspace = "\x7f"
    child.expect(">>>")
    # typed as a person types: the shell indents after each ':' and
    # keeps the indentation; Backspace steps out one level
    child.send("CRAFT evens(xs):\r")
    child.send("SET t AS 0\r")
    child.send("SWEEP x IN xs:\r")
    child.send("UPON AKIN(RESIDUE(x, 2), 0):\r")
    child.send("SET t AS SHATTER(t, x)\r")
    child.send(backspace * 2 + "DELIVER t\r")
    child.send("\r")  # a blank line ends the block
    child.expect(r"\(0 units\)")
    child.expect(">>>")
    child.send("EMIT(evens(STRAND(1, 2, 3, 4)))\r")
    child.expect(r"6\s+\(1 unit\)")
    child.expect(">>>")
    terminal.leave(child)
    history = (tmp_path / "alienworlds" / "aliencode_history").read_text()
    assert "\n".join("+" + line for line in THREE_LEVELS[:6]) in history
