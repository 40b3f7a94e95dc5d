"""A trace read back (--from, --probes-from, --resume, `report`) is bounded
before it is read, and a hostile line is a TraceError, never a crash."""

import json

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.episode import trace as trace_module
from alienworlds.episode.trace import Trace, TraceError, read_trace
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

HEADER = {"type": "header", "key": "header", "world": "demo", "condition": "autonomous", "seed": 0}
LAST = json.dumps({"type": "note", "key": "note/1"})  # a valid event after the hostile line


def write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_trace_over_the_bound_is_refused_unread(tmp_path, monkeypatch):
    path = write(tmp_path / "trace.jsonl", [json.dumps(HEADER)] * 50)
    monkeypatch.setattr(trace_module, "MAX_TRACE_BYTES", path.stat().st_size - 1)
    monkeypatch.setattr(
        type(path), "read_bytes", lambda self: pytest.fail("a trace over the bound was read")
    )
    with pytest.raises(TraceError, match="more than a trace may hold"):
        read_trace(tmp_path)
    with pytest.raises(TraceError, match="more than a trace may hold"):
        Trace(path, resume=True)


def test_the_bound_admits_a_trace_at_the_bound(tmp_path, monkeypatch):
    path = write(tmp_path / "trace.jsonl", [json.dumps(HEADER)])
    monkeypatch.setattr(trace_module, "MAX_TRACE_BYTES", path.stat().st_size)
    assert read_trace(path) == [HEADER]


@settings(max_examples=examples(40), deadline=None)
@given(
    depth=st.integers(min_value=1, max_value=200_000), where=st.sampled_from(["first", "middle"])
)
def test_deeply_nested_lines_are_trace_errors(tmp_path_factory, depth, where):
    nested = "[" * depth + "]" * depth
    lines = (
        [nested, json.dumps(HEADER), LAST]
        if where == "first"
        else [json.dumps(HEADER), nested, LAST]
    )
    path = write(tmp_path_factory.mktemp("t") / "trace.jsonl", lines)
    try:
        events = read_trace(path)
    except TraceError as exc:
        assert "line" in str(exc)
    else:
        pytest.fail(f"a line nested {depth} deep passed as events: {events[:1]}")


def test_replay_of_a_hostile_trace_is_one_line_and_exit_2(tmp_path):
    path = write(
        tmp_path / "trace.jsonl", ["[" * 100_000 + "]" * 100_000, json.dumps(HEADER), LAST]
    )
    result = CliRunner().invoke(
        main, ["episode", "--agent", "replay", "--from", str(path), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert "cannot read the trace to replay" in result.output and "Traceback" not in result.output
