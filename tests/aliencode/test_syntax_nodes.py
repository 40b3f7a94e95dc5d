"""The syntax tree's node classes behave as the frozen dataclasses they
replace (aliencode/syntax.py builds them without @dataclass(frozen=True)'s
compiled methods, for start-up): each is held to a frozen dataclass with
the same fields, made here."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aliencode import syntax as s

NODES = [
    cls
    for _, cls in inspect.getmembers(s, inspect.isclass)
    if cls.__module__ == s.__name__ and dataclasses.is_dataclass(cls)
]


def reference(cls: type) -> type:
    """A frozen dataclass with `cls`'s name and fields."""
    return dataclasses.make_dataclass(
        cls.__name__, [(f.name, f.type) for f in dataclasses.fields(cls)], frozen=True
    )


REFERENCES = {cls: reference(cls) for cls in NODES}

# Field values of every shape a tree holds: scalars, tuples, nested nodes.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=True),
    st.text(max_size=3),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.tuples(inner, inner),
        st.builds(s.Pos, st.integers(1, 3), st.integers(1, 3)),
    ),
    max_leaves=6,
)


def test_every_node_class_is_covered():
    assert len(NODES) == 20
    assert {s.Pos, s.IntLit, s.If, s.Program} <= set(NODES)


@pytest.mark.parametrize("cls", NODES, ids=lambda c: c.__name__)
@given(data=st.data())
def test_a_node_behaves_as_its_frozen_dataclass(cls, data):
    ref = REFERENCES[cls]
    names = [f.name for f in dataclasses.fields(cls)]
    first = data.draw(st.lists(values, min_size=len(names), max_size=len(names)))
    second = data.draw(st.sampled_from([first, [*first[:-1], data.draw(values)]]))
    mine, other = cls(*first), cls(**dict(zip(names, second)))
    theirs, their_other = ref(*first), ref(**dict(zip(names, second)))

    assert repr(mine) == repr(theirs)
    assert (mine == other) == (theirs == their_other)
    assert (mine != other) == (theirs != their_other)
    assert (mine == theirs) is False  # another class is never equal, as between dataclasses
    assert hash(mine) == hash(theirs)
    assert cls.__match_args__ == ref.__match_args__
    assert dataclasses.is_dataclass(mine)
    assert dataclasses.astuple(mine) == dataclasses.astuple(theirs)
    changed = {names[0]: second[0]}
    assert repr(dataclasses.replace(mine, **changed)) == repr(
        dataclasses.replace(theirs, **changed)
    )
    for name in [*names, "other"]:
        for attempt in (lambda o: setattr(o, name, 1), lambda o: delattr(o, name)):
            with pytest.raises(dataclasses.FrozenInstanceError) as raised:
                attempt(mine)
            with pytest.raises(dataclasses.FrozenInstanceError) as expected:
                attempt(theirs)
            assert str(raised.value) == str(expected.value)


def test_a_wrong_call_fails_as_a_dataclass_call_does():
    for cls in NODES:
        n = len(dataclasses.fields(cls))
        with pytest.raises(TypeError):
            cls(*range(n + 1))
        with pytest.raises(TypeError):
            cls(*range(n - 1))
