"""Random values of an inferred type, and the AlienCode text that builds them
in the manual's semantics (for calls written by tests)."""

from __future__ import annotations

from alienworlds.porting.types import Ty
from hypothesis import strategies as st

from aliencode.unparse import value_literal


def values(t: Ty, depth: int = 0) -> st.SearchStrategy:
    """Values of type `t` (a value of any type is drawn as an integer)."""
    if t.top:
        return st.integers(-30, 30)
    options = []
    if "int" in t.scalars:
        options.append(st.integers(-30, 30))
    if "float" in t.scalars:
        options.append(st.floats(-100, 100, allow_nan=False).map(lambda x: round(x, 2)))
    if "bool" in t.scalars:
        options.append(st.booleans())
    if "str" in t.scalars:
        options.append(st.text(alphabet="abc xyz([{}])", max_size=6))
    if "none" in t.scalars:
        options.append(st.none())
    element = depth < 3
    if t.lists is not None and element:
        options.append(
            st.lists(values(t.lists, depth + 1) if not t.lists.empty else st.nothing(), max_size=5)
        )
    for inner in (t.tuples, t.made):
        if inner is not None and element:
            options.append(
                st.lists(
                    values(inner, depth + 1) if not inner.empty else st.nothing(), max_size=3
                ).map(tuple)
            )
    return st.one_of(options) if options else st.none()


def text(v: object) -> str:
    """Manual-semantics AlienCode building `v`."""
    return value_literal(v)
