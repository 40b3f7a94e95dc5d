"""The equivalence checker's sameness of values: the shortcuts it takes (an
object is the same as itself; elements compared in a loop) agree with the
definition on any values, shared elements and NaN included."""

from __future__ import annotations

import math

from alienworlds.ruleset.equivalence import _same
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st


def defined(x: object, y: object) -> bool:
    """The definition: numbers by value (NaN the same as NaN), sequences of
    one type element by element, strings, booleans and none by equality,
    anything else only itself."""
    tx, ty = type(x), type(y)
    if tx in (int, float) and ty in (int, float):
        if tx is float and ty is float and math.isnan(x) and math.isnan(y):
            return True
        return x == y
    if tx is not ty:
        return False
    if tx in (list, tuple):
        return len(x) == len(y) and all(defined(a, b) for a, b in zip(x, y))
    return x == y if tx in (str, bool, type(None)) else x is y


NAN = float("nan")
scalars = st.one_of(
    st.integers(-3, 3),
    st.sampled_from([0.0, -0.0, 1.0, 2.5, NAN, float("inf")]),
    st.booleans(),
    st.none(),
    st.sampled_from(["", "a", "1"]),
    st.sampled_from([len, abs]),
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner), max_leaves=12
)


@settings(max_examples=examples(400), deadline=None)
@given(values, values)
def test_same_as_the_definition(x, y):
    assert _same(x, y) == defined(x, y)


@settings(max_examples=examples(200), deadline=None)
@given(values)
def test_shared_elements(x):
    # results built from one sample share its objects: a list against a copy
    # holding the same elements, and against itself
    copy = list(x) if type(x) is list else x
    assert _same(x, copy) == defined(x, copy)
    assert _same([x, float("nan")], [x, float("nan")]) is True
    assert _same([x, 1], [x, True]) is False
