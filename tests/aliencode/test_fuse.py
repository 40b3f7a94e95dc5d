"""FUSE's fast path (aliencode/operations.py) charges, holds and refuses
exactly what the rule operator `join` with an empty separator does."""

from __future__ import annotations

from fuzzing import examples
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
        session.namespace["_s_FUSE2"] = lambda first, second: join("", [first, second])
    result = session.execute(program)
    return {**result.as_dict(), "peak": session.meter.peak}


def same_as_join(
    steps_before: int, repeat: int, max_length: int, part: str, grown: str, kept: str
) -> None:
    """A loop of FUSEs crosses checkpoints (small step budget) and makes a
    census likely (small memory limit), the text growing past every length:
    the same outcome with FUSE's helpers as with `join`."""
    lines = [
        f"SWEEP k IN EXTENT({steps_before}):\n    IDLE",
        'SET text AS ""',
        f"SWEEP k IN EXTENT({repeat}):",
        f"    SET part AS {part}",
        f"    SET text AS {grown}",
        f"    SET keep AS PARE({kept}, 50)",
        "EMIT(GAUGE(text))",
    ]
    source = "\n".join(lines)
    limits = Limits(max_steps=3000, max_length=max_length, max_memory=40_000)
    assert outcome(source, limits, False) == outcome(source, limits, True), source


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(PIECES, max_size=6),
    st.integers(1, 40),
    st.sampled_from([10, 64, 65, 200, 100_000]),
    st.integers(0, 2),
)
def test_fuse_behaves_as_join(pieces, repeat, max_length, steps_before):
    same_as_join(
        steps_before,
        repeat,
        max_length,
        f"FUSE({', '.join(pieces)})",
        "FUSE(text, part, k)",
        "STRAND(text)",
    )


@settings(max_examples=examples(300), deadline=None)
@given(
    PIECES,
    PIECES,
    st.integers(1, 40),
    st.sampled_from([10, 64, 65, 200, 100_000]),
    st.integers(0, 2),
)
def test_fuse_of_two_behaves_as_join(first, second, repeat, max_length, steps_before):
    """FUSE of two pieces has a helper of its own (operations.py, `fuse2`),
    which charges its step inline: checkpoints and censuses fall where
    `join` puts them."""
    same_as_join(
        steps_before,
        repeat,
        max_length,
        f"FUSE({first}, {second})",
        "FUSE(text, part)",
        "STRAND(FUSE(k, text))",
    )


@settings(max_examples=examples(300), deadline=None)
@given(PIECES, PIECES, st.sampled_from([0.0, 1.0, 5.0]))
def test_fuse_of_two_leaves_the_meter_as_join_does(first, second, budget):
    """Unit level: the result or error, and every count of the meter
    (budget, operator steps, memory), after `fuse2` and after `join`, from
    a budget the charge may take below zero (a checkpoint)."""
    found = []
    for helper in ("_s_FUSE2", "_r_join"):
        session = Session(Limits())
        values = [eval_piece(session, piece) for piece in (first, second)]
        session.meter.reset()
        session.meter.budget = session.meter.granted = budget
        call = session.namespace[helper]
        try:
            result = call(*values) if helper == "_s_FUSE2" else call("", values)
        except Exception as exc:  # noqa: BLE001 - compared, kind and message
            result = (type(exc).__name__, str(exc))
        meter = session.meter
        found.append((result, meter.budget, meter.charged, meter.used, meter.allocated))
    assert found[0] == found[1]


def eval_piece(session: Session, piece: str) -> object:
    program = compile_source(f"SET v AS {piece}", STANDARD, Limits())
    session.execute(program)
    return session.namespace["a_v"]
