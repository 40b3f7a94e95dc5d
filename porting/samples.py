"""Sample values of a type, and strict comparison of values.

Compensations are checked on these: small and edge-case numbers, strings,
lists and tuples of the right element types, predicates. Values compare
strictly (type and value, so `2` and `2.0`, `1` and `YES` differ), because
a ported program must print exactly what the manual's program prints.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from alienworlds.ruleset.equivalence import POOLS

from .types import Ty

INTS = (0, 1, 2, 3, -1, -2, 5, 7, 10, 27, -9, 100, 2**33 + 1, -(2**40))
FLOATS = (0.0, 0.5, -1.5, 2.0, 3.25, 1e10)
STRS = ("", "a", "ab", "abc", "hello", "x y", "zz")
BOOLS = (True, False)
PREDICATES = tuple(POOLS["pred"])
GENERIC_SEQS = ([], [1], [1, 2, 3], [3, 1, 2], [-1, 0, 5, 5], ["a", "b"], [[1, 2], [3]], [True, 0], (), (1, 2), ("a",))

@dataclass(frozen=True)
class Made:
    """A sample tuple built by a caller with the world's KNOT from `args`;
    the goal builder turns it into the world's layout (what the program
    receives) and the argument order (what the program means)."""

    args: tuple


_SCALAR_POOLS = {"int": INTS, "float": FLOATS, "str": STRS, "bool": BOOLS, "none": (None,), "func": PREDICATES}


def values(t: Ty, depth: int = 0) -> tuple:
    """Deterministic sample values of type `t` (an empty tuple for no value)."""
    if t.top:
        return INTS[:8] + FLOATS[:3] + STRS[:5] + BOOLS + (None,) + tuple(GENERIC_SEQS) + PREDICATES[:1]
    out: list[object] = []
    for kind in ("int", "float", "bool", "str", "none", "func"):
        if kind in t.scalars:
            pool = _SCALAR_POOLS[kind]
            out.extend(pool if depth == 0 else pool[:4])
    if t.lists is not None:
        out.extend(_sequences(t.lists, list, depth))
    if t.tuples is not None:
        out.extend(tuple(x) for x in _sequences(t.tuples, list, depth))
    if t.made is not None:
        out.extend(Made(tuple(x)) for x in _sequences(t.made, list, depth))
    return tuple(out)


def _sequences(element: Ty, kind: type, depth: int) -> list:
    """Every sequence of up to two of the first three element samples, and
    a few longer ones."""
    inner = values(element, depth + 1) if depth < 2 else ()
    if not inner:
        return [kind()]
    first = inner[:3] if depth == 0 else inner[:2]
    out = [kind()]
    out.extend(kind([x]) for x in first)
    out.extend(kind([x, y]) for x in first for y in first)
    a, b, c, d = inner[0], inner[1 % len(inner)], inner[2 % len(inner)], inner[-1]
    out.extend([kind([a, a, a]), kind([a, b, c]), kind([c, a, b, d]), kind([d, c, b, a, a])])
    return out


def has_made(v: object) -> bool:
    if type(v) is Made:
        return True
    return type(v) in (list, tuple) and any(has_made(x) for x in v)


def key(v: object) -> str:
    """A key equal exactly for strictly equal values: Python's repr tells
    apart 1, 1.0, True and '1', lists from tuples, -0.0 from 0.0, and shows
    a function's identity."""
    return repr(v)


def same(a: object, b: object) -> bool:
    return key(a) == key(b)


def is_nan(v: object) -> bool:
    return type(v) is float and math.isnan(v)
