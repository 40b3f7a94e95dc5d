"""References to code by name ("package.module:attribute")."""

from __future__ import annotations

import pytest
from alienworlds.ruleset.references import (
    MalformedReference,
    Reference,
    UnresolvedReference,
    is_reference,
)
from hypothesis import assume, given
from hypothesis import strategies as st

IDENTIFIER = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)


def test_a_reference_loads_what_it_names():
    ref = Reference("alienworlds.ruleset.references:Reference")
    assert ref.load() is Reference
    assert (ref.module, ref.attribute) == ("alienworlds.ruleset.references", "Reference")


@pytest.mark.parametrize(
    "text, reason",
    [
        ("alienworlds.no_such_module:X", "No module named"),
        ("alienworlds.ruleset.references:NoSuchName", "has no 'NoSuchName'"),
    ],
)
def test_what_cannot_load_says_why(text, reason):
    with pytest.raises(UnresolvedReference, match=reason) as caught:
        Reference(text).load()
    assert caught.value.text == text and str(caught.value).startswith(f"cannot load {text}")


@given(
    st.lists(IDENTIFIER, min_size=1, max_size=4),
    IDENTIFIER,
)
def test_every_dotted_name_with_an_attribute_is_a_reference(parts, attribute):
    text = ".".join(parts) + ":" + attribute
    assert is_reference(text)
    assert Reference(text).module == ".".join(parts) and Reference(text).attribute == attribute


@given(st.one_of(st.text(max_size=30), st.integers(), st.none(), st.lists(st.text())))
def test_anything_else_is_refused_with_one_error_type(value):
    assume(not is_reference(value))  # the well-formed ones are the property above
    with pytest.raises(MalformedReference, match="package.module:attribute"):
        Reference(value)


@pytest.mark.parametrize(
    "text", ["", "module", "module:", ":attr", "a..b:c", "a.b:c.d", "a:b:c", "1a:b", "a b:c"]
)
def test_near_misses_are_malformed(text):
    assert not is_reference(text)
    with pytest.raises(MalformedReference):
        Reference(text)
