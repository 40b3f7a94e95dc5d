"""`join` renders strings and small integers without `render`'s calls; it
must give what rendering every value gives: the same text, the same
refusal at the same length, the same steps charged."""

from __future__ import annotations

from alienworlds.ruleset import LanguageError, Limits, Meter, make_operators, render
from alienworlds.ruleset.text import TextTooLong
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

SCALARS = st.one_of(
    st.text(max_size=90),
    st.integers(-(2**70), 2**70),
    st.sampled_from([True, False, None, 0.5, -0.0, 2**64, -(2**64), 2**300]),
)
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=4))


def rendered_join(sep: str, seq: list, limits: Limits, meter: Meter) -> str:
    """join as the specification says: every value through `render`."""
    meter.charge(len(seq) >> 1)
    remaining = limits.max_length + len(sep)
    texts = []
    for x in seq:
        remaining -= len(sep)
        text = render(
            x, budget=max(0, remaining), max_nesting=limits.max_nesting, charge=meter.charge
        )
        remaining -= len(text)
        texts.append(text)
    if remaining < 0:
        raise TextTooLong()
    return make_operators(meter)["checked"](sep.join(texts))


def outcome(run) -> tuple[object, int]:
    try:
        return run(), 0
    except LanguageError as exc:
        return exc.kind, 1


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(["", ", ", "-" * 70]), st.lists(VALUES, max_size=12), st.integers(0, 400))
def test_join_gives_what_rendering_gives(sep, seq, max_length):
    limits = Limits(max_length=max_length, max_steps=10**9)
    fast_meter, slow_meter = Meter(limits), Meter(limits)
    join = make_operators(fast_meter)["join"]
    fast = outcome(lambda: join(sep, seq))
    slow = outcome(lambda: rendered_join(sep, seq, limits, slow_meter))
    assert fast == slow
    assert fast_meter.steps == slow_meter.steps
