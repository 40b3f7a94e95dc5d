"""Sample values of a type, and strict comparison of values.

Compensations are checked on these: small and edge-case numbers (zero,
negatives, -0.0, large ones), strings, booleans, lists and tuples of the
right element types (empty, one of each edge case, ties such as 1 / 1.0 /
YES that compare equal and print differently, a long one), predicates; and
on random values from a wider range (`wide`). Values compare
strictly (type and value, so `2` and `2.0`, `1` and `YES` differ), because
a ported program must print exactly what the manual's program prints.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from alienworlds.ruleset.equivalence import POOLS

from .types import BOOL, FLOAT, INT, STR, Ty

TOP_ELEMENT = INT | FLOAT | BOOL | STR

INTS = (0, 1, 2, 3, -1, -2, 5, 7, 10, 27, -9, 100, 2**33 + 1, -(2**40))
FLOATS = (0.0, 0.5, -1.5, 2.0, 3.25, 1e10, -0.0, 1.0, -7.0)
STRS = ("", "a", "ab", "abc", "hello", "x y", "zz", "B", "10", "-1")
BOOLS = (True, False)
PREDICATES = tuple(POOLS["pred"])
GENERIC_SEQS = (
    [],
    [1],
    [1, 2, 3],
    [3, 1, 2],
    [-1, 0, 5, 5],
    ["a", "b"],
    [[1, 2], [3]],
    [True, 0],
    (),
    (1, 2),
    ("a",),
    [0, False, 0.0],
    [1, 1.0, True],
    [-0.0, 0.0],
)
# Inside sequences: boundary values first (zero, negatives, -0.0, the values
# 0/0.0/NO and 1/1.0/YES that compare equal yet print differently), so that
# short lists built from the first few already hold them.
INNER = {
    "int": (0, 1, -1, 2, -5, 3, 10),
    "float": (0.0, -0.0, 1.0, -1.5, 2.5),
    "str": ("", "a", "B", "ab", "b a"),
    "bool": (True, False),
    "none": (None,),
    "func": PREDICATES[:1],
}
LONG = 24  # elements of the long sample sequences


@dataclass(frozen=True)
class Made:
    """A sample tuple built by a caller with the world's KNOT from `args`;
    the goal builder turns it into the world's layout (what the program
    receives) and the argument order (what the program means)."""

    args: tuple


_SCALAR_POOLS = {
    "int": INTS,
    "float": FLOATS,
    "str": STRS,
    "bool": BOOLS,
    "none": (None,),
    "func": PREDICATES,
}


def values(t: Ty, depth: int = 0) -> tuple:
    """Deterministic sample values of type `t` (an empty tuple for no value):
    edge cases of every kind it admits, and sequences of them."""
    if t.top:
        return (
            INTS[:8]
            + FLOATS[:3]
            + (-0.0,)
            + STRS[:5]
            + BOOLS
            + (None,)
            + tuple(GENERIC_SEQS)
            + PREDICATES[:1]
        )
    out: list[object] = []
    for kind in ("int", "float", "bool", "str", "none", "func"):
        if kind in t.scalars:
            out.extend(_SCALAR_POOLS[kind] if depth == 0 else INNER[kind])
    if t.lists is not None:
        out.extend(_sequences(t.lists, list, depth))
    if t.tuples is not None:
        out.extend(tuple(x) for x in _sequences(t.tuples, list, depth))
    if t.made is not None:
        out.extend(Made(tuple(x)) for x in _sequences(t.made, list, depth))
    return tuple(out)


def _sequences(element: Ty, kind: type, depth: int) -> list:
    """The empty sequence, one of each element sample, every pair of the
    first few, pairs of values equal but printed differently (both orders),
    and a few longer ones, one of them long."""
    inner = values(element, depth + 1) if depth < 2 else ()
    if not inner:
        return [kind()]
    first = inner[:3] if depth == 0 else inner[:2]
    out = [kind()]
    out.extend(kind([x]) for x in (inner if depth == 0 else first))
    out.extend(kind([x, y]) for x in first for y in first)
    out.extend(kind([x, y]) for x, y in _ties(inner))
    a, b, c, d = inner[0], inner[1 % len(inner)], inner[2 % len(inner)], inner[-1]
    out.extend([kind([a, a, a]), kind([a, b, c]), kind([c, a, b, d]), kind([d, c, b, a, a])])
    if depth == 0:
        out.append(kind([inner[(7 * k + 3) % len(inner)] for k in range(LONG)]))
    return out


def _ties(pool: tuple) -> list[tuple]:
    """Ordered pairs of scalars that compare equal but print differently."""
    scalars = [v for v in pool if type(v) in (int, float, bool)]
    return [(x, y) for x in scalars for y in scalars if x == y and key(x) != key(y)]


def wide(t: Ty, rng: random.Random, depth: int = 0) -> object:
    """One random value of type `t` from a wider range than the samples:
    beyond them, so a template that only fits the samples is caught."""
    kinds = sorted(t.kinds()) if not t.top else ["int", "float", "bool", "str", "none", "list"]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.choice((rng.randint(-12, 12), rng.randint(-(10**6), 10**6)))
    if kind == "float":
        return rng.choice((-0.0, 0.0, float(rng.randint(-9, 9)), round(rng.uniform(-1e3, 1e3), 3)))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "str":
        return "".join(rng.choice("aAbz 0-9") for _ in range(rng.randint(0, 6)))
    if kind in ("none", "func"):
        return None if kind == "none" else PREDICATES[rng.randrange(len(PREDICATES))]
    element = (
        {"list": t.lists, "tuple": t.tuples, "made": t.made}[kind] if not t.top else TOP_ELEMENT
    )
    if element is None or element.empty or depth >= 2:
        items: list[object] = []
    else:
        items = [wide(element, rng, depth + 1) for _ in range(rng.choice((0, 1, 2, 3, 5, 9, 17)))]
    if kind == "list":
        return items
    return tuple(items) if kind == "tuple" else Made(tuple(items))


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
