"""FUSE's fast path (aliencode/operations.py) charges, holds and refuses
exactly what the rule operator `join` with an empty separator does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import Limits, Session, compile_source
from aliencode.world_schema import load

STANDARD = load("standard")
PIECES = st.one_of(
    st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=70).map(
        lambda t: '"' + t.replace('"', "").replace("\\", "") + '"'
    ),
    st.sampled_from([str((1 << 64) - 1), str(-(1 << 64) + 1), str(1 << 64), str(-(1 << 64))]),
    st.integers(-(10**25), 10**25).map(str),
    st.sampled_from(["YES", "none", "2.5", "STRAND(1, 2)", "KNOT()", '"é"']),
)


def outcome(source: str, limits: Limits, reference: bool) -> dict[str, object]:
    program = compile_source(source, STANDARD, limits)
    session = Session(limits)
    if reference:
        join = session.namespace["_r_join"]
        session.namespace["_s_FUSE"] = lambda args: join("", args)
    result = session.execute(program)
    return {**result.as_dict(), "peak": session.meter.peak}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(PIECES, max_size=6),
    st.integers(1, 40),
    st.sampled_from([10, 64, 65, 200, 100_000]),
    st.integers(0, 2),
)
def test_fuse_behaves_as_join(pieces, repeat, max_length, steps_before):
    # a loop of FUSEs crosses checkpoints (small step budget) and makes a
    # census likely (small memory limit); the result grows past every length
    lines = [
        f"SWEEP k IN EXTENT({steps_before}):\n    IDLE",
        'SET text AS ""',
        f"SWEEP k IN EXTENT({repeat}):",
        f"    SET part AS FUSE({', '.join(pieces)})",
        "    SET text AS FUSE(text, part, k)",
        "    SET keep AS PARE(STRAND(text), 50)",
        "EMIT(GAUGE(text))",
    ]
    source = "\n".join(lines)
    limits = Limits(max_steps=3000, max_length=max_length, max_memory=40_000)
    assert outcome(source, limits, False) == outcome(source, limits, True), source
