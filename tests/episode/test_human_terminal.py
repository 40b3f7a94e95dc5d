"""The terminal player's input: lines from a file descriptor, bounded, and
stoppable while it waits."""

import io
import os
import threading
import time

import pytest
from alienworlds.episode.human_agent import Turn
from alienworlds.episode.human_terminal import (
    EDIT_MARK,
    InputClosed,
    LineReader,
    LineTooLong,
    Stopped,
    TerminalPlayer,
)
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st


def feed(data: bytes) -> int:
    """A pipe's read end whose writer sends `data` (in a thread) and closes."""
    read, write = os.pipe()

    def writer():
        view = memoryview(data)
        while view:
            view = view[os.write(write, view[:65536]) :]
        os.close(write)

    threading.Thread(target=writer, daemon=True).start()
    return read


def all_lines(reader):
    """(line or "TOO LONG") until the end of input."""
    out = []
    while True:
        try:
            line = reader.readline()
        except LineTooLong:
            out.append("TOO LONG")
            continue
        if line is None:
            return out
        out.append(line)
        assert (
            len(reader._buffer) <= reader.max_chars + 4096
        )  # never more than one chunk past the limit


lines = st.lists(
    st.text(
        alphabet=st.characters(exclude_characters="\n\r", exclude_categories=("Cs",)), max_size=30
    ),
    max_size=20,
)


@settings(max_examples=examples(60), deadline=None)
@given(lines)
def test_lines_come_back_as_written(written):
    data = "".join(line + "\n" for line in written).encode()
    fd = feed(data)
    try:
        assert all_lines(LineReader(fd, max_chars=1000)) == written
    finally:
        os.close(fd)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(
        st.one_of(st.text(alphabet="ab\u00e9", max_size=40), st.integers(41, 5000)), max_size=12
    ),
    st.booleans(),
)
def test_over_long_lines_are_dropped_and_the_rest_kept(items, final_newline):
    """Worst inputs: lines past the limit (as integers: their length), among
    normal ones, possibly the last one without a newline."""
    limit = 40
    written = ["x" * item if isinstance(item, int) else item for item in items]
    data = "".join(line + "\n" for line in written)
    if written and not final_newline:
        data = data[:-1]
    fd = feed(data.encode())
    try:
        got = all_lines(LineReader(fd, max_chars=limit))
    finally:
        os.close(fd)
    expected = ["TOO LONG" if len(line) > limit else line for line in written]
    if not final_newline and written and written[-1] == "":
        expected = expected[:-1]  # an empty unterminated last line is no line
    assert got == expected


def test_a_stop_ends_a_wait_for_input_at_once():
    read, write = os.pipe()
    reader = LineReader(read)
    threading.Timer(0.1, reader.stop).start()
    started = time.monotonic()
    try:
        with pytest.raises(Stopped):
            reader.readline()
        assert time.monotonic() - started < 2.0
    finally:
        os.close(read)
        os.close(write)


def player(text, editor=None, answers_dir=None):
    out = io.StringIO()
    fd = feed(text.encode())
    reader = LineReader(fd, max_chars=200)
    p = TerminalPlayer(out, reader, "code", answers_dir, editor or (lambda template: None))
    return p, out


def turn(purpose="explore", **kw):
    base = dict(
        key="r1/turn1",
        purpose=purpose,
        unseen=[],
        prompt=None,
        round=1,
        milestone=None,
        task=None,
        probes_made=0,
        probes_allowed=12,
        tool_name="run_aliencode",
    )
    return Turn(**{**base, **kw})


def test_a_probe_is_the_lines_up_to_a_lone_dot():
    p, _ = player("EMIT(1)\nEMIT(2)\n.\n")
    assert p.probe(turn()) == "EMIT(1)\nEMIT(2)"


def test_commands_help_and_refuse_without_losing_the_turn(tmp_path):
    text = ":nonsense\n:help\n:load /no/such/file\n:brief\n:end\n"
    p, out = player(text)
    assert p.probe(turn()) is None
    shown = out.getvalue()
    assert "unknown command ':nonsense'" in shown and "cannot load it" in shown


def test_end_is_only_a_command_while_exploring():
    p, out = player(":end\nmy answer\n.\n")
    assert p.answer(turn("answer", prompt="Q?", milestone=0, task="T1")) == "my answer"
    assert "unknown command ':end'" in out.getvalue()


def test_text_past_the_limit_is_refused_and_asked_again():
    p, out = player("y" * 150 + "\n" + "y" * 150 + "\nshort\n.\n")
    assert p.probe(turn()) == "short"
    assert "longer than" in out.getvalue()


def test_the_editor_gives_what_is_below_the_mark():
    saved = iter([None, f"the prompt\n{EDIT_MARK}\nEMIT(3)\n"])
    p, out = player(":edit\n:edit\n", editor=lambda template: next(saved))
    assert p.probe(turn()) == "EMIT(3)"
    assert "nothing was saved" in out.getvalue()


def test_load_reads_a_file(tmp_path):
    (tmp_path / "probe.txt").write_text("EMIT(4)\n")
    p, _ = player(f":load {tmp_path / 'probe.txt'}\n")
    assert p.probe(turn()) == "EMIT(4)"


def test_milestone_answers_come_from_the_milestone_file_first(tmp_path):
    (tmp_path / "M1").mkdir()
    (tmp_path / "T1.txt").write_text("any milestone")
    (tmp_path / "M1" / "T1.txt").write_text("milestone one")
    (tmp_path / "rules.txt").write_text("R1: IDENTITY")
    p, _ = player("", answers_dir=tmp_path)
    assert p.answer(turn("answer", prompt="Q", milestone=1, task="T1")) == "milestone one"
    assert p.answer(turn("answer", prompt="Q", milestone=2, task="T1")) == "any milestone"
    assert p.rule_report(turn("rules", prompt="R", milestone=0)) == "R1: IDENTITY"


def test_an_unusable_answer_file_is_said_and_typed_instead(tmp_path):
    (tmp_path / "T1.txt").write_bytes(b"\xff\xfe not utf-8")
    p, out = player("typed\n.\n", answers_dir=tmp_path)
    assert p.answer(turn("answer", prompt="Q", milestone=0, task="T1")) == "typed"
    assert "cannot use" in out.getvalue()


def test_the_end_of_input_stops_the_session_cleanly():
    p, _ = player("half a probe\n")
    with pytest.raises(InputClosed, match="--resume"):
        p.probe(turn())
