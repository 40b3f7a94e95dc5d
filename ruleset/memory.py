"""Deterministic accounting of the memory a program's values hold.

Memory is counted in units, from the values alone (never read from the
host), with a model close to a 64-bit CPython's bytes (`size`). The live
size of a run is measured by a census: a walk over everything reachable from
the run's roots (its variables and the locals of its active calls, given by
the language) plus the large values the operators made (`held`), each value
counted once. A held value that no root reaches is kept when something
invisible to the walk still refers to it (a value waiting on an expression's
host stack, a loop's iterator): its host reference count says so. The
verdict depends only on the program: the walk is over values, reference
counts are exact, and nothing here waits for the host's garbage collector
(a held value reachable only through a cycle among held values is dead).

The meter takes a census when the units allocated since the last one (what
operators report, plus UNITS_PER_STEP for every step of generated code, which
covers the lists it builds natively) could have brought the live size found
last time past the limit, but not before a quarter of the limit more was
allocated; a census that finds more than the limit stops the run. So the
census's work (one step per VISITS_PER_STEP values visited, charged) is paid
for by the allocation before it, and the live size exceeds the limit by at
most a quarter of it before a census notices.

Values the walk cannot see and no operator made (a list built element by
element, then waiting only on a host stack) are not counted; what a run can
build that way is bounded by its steps (UNITS_PER_STEP per step at most,
bar a native sum with a large negative integer).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from types import FunctionType

HOLD_MIN = 256  # units: smaller values an operator makes are not held
UNITS_PER_STEP = 64  # units generated code may build natively in one step (a list display)
VISITS_PER_STEP = 2  # values a census visits per step it charges
_WIDE = 1 << 64  # integers beyond this are counted once however often shared


def size(value: object) -> int:
    """Units of one value, not counting the values it refers to."""
    cls = type(value)
    if cls is int:
        if -6 < value < 257:
            return 0  # one shared object per value in the host
        if -_WIDE < value < _WIDE:
            return _INT
        bits = value.bit_length()
        return 32 + (bits >> 3) + (bits >> 6)
    if cls is float:
        return 24
    if cls is str:
        if value in _HOST_CHARS:
            return 0  # one shared object per character in the host
        return 56 + len(value) * (1 if value.isascii() else 4)
    if cls is list:
        return 56 + 8 * len(value)
    if cls is tuple:
        return 40 + 8 * len(value)
    if value is None or cls is bool:
        return 0
    if cls is FunctionType:
        return 160 + 56 * len(value.__closure__ or ())
    return 64


_HOST_CHARS = frozenset(map(chr, range(256))) | {""}  # strings the host shares
_INT = 40  # an integer within 64 bits, counted where it appears
_PAIR = 56  # a tuple of two


def _shared(value: object) -> bool:
    """Whether a value may be counted once per reference instead of once:
    small numbers and one-character strings (counting one again where it is
    shared only overstates, and costs the census nothing, where remembering
    millions of tiny values seen would cost more memory than they hold).
    The host's own shared values (small integers, Latin-1 characters) count
    nothing at all."""
    cls = type(value)
    return (
        cls is float or (cls is int and -_WIDE < value < _WIDE) or (cls is str and len(value) <= 1)
    )


def _children(value: object) -> Iterable[object]:
    cls = type(value)
    if cls is list or cls is tuple:
        return value
    if cls is FunctionType and value.__closure__:
        inside = []
        for cell in value.__closure__:
            try:
                inside.append(cell.cell_contents)
            except ValueError:  # a cell not yet set
                pass
        return inside
    return ()


@dataclass
class Census:
    live: int  # units reachable
    held: list[object]  # the held values still alive, each once, in order
    visited: int  # values visited (the census's own work)


def _walk(stack: list[object], seen: set[int]) -> tuple[int, int]:
    """Units of everything reachable from `stack` not yet in `seen`, and the
    number of values visited. A container's small elements are counted in
    place (the common case costs no stack traffic)."""
    total = visited = 0
    push = stack.append
    while stack:
        value = stack.pop()
        visited += 1
        if _shared(value):
            total += size(value)
            continue
        key = id(value)
        if key in seen:
            continue
        seen.add(key)
        total += size(value)
        cls = type(value)
        if cls is list or cls is tuple:
            visited += len(value)
            for item in value:
                kind = type(item)
                if kind is tuple and len(item) == 2:
                    # a pair (what INDEX and PAIR make) is counted where it
                    # appears, with a small integer in it; the rest is walked
                    first, second = item
                    total += _PAIR
                    if type(first) is int and -_WIDE < first < _WIDE:
                        total += 0 if -6 < first < 257 else _INT
                    else:
                        push(first)
                    if type(second) is int and -_WIDE < second < _WIDE:
                        total += 0 if -6 < second < 257 else _INT
                    else:
                        push(second)
                elif kind is int:
                    if -_WIDE < item < _WIDE:
                        total += 0 if -6 < item < 257 else _INT
                    elif (key := id(item)) not in seen:
                        seen.add(key)
                        bits = item.bit_length()
                        total += 32 + (bits >> 3) + (bits >> 6)
                elif kind is float:
                    total += 24
                elif kind is str:
                    if len(item) <= 1:
                        total += size(item)  # (see _shared)
                    elif (key := id(item)) not in seen:
                        seen.add(key)
                        total += size(item)
                elif kind is not bool and item is not None:
                    push(item)
        else:
            stack.extend(_children(value))
    return total, visited


def _unreached(held: list[object], seen: set[int]) -> tuple[dict[int, int], dict[int, int]]:
    """For each held value no root reaches: how often it is held, and where first."""
    occurrences: dict[int, int] = {}
    first: dict[int, int] = {}
    for index, value in enumerate(held):
        key = id(value)
        if key not in seen:
            occurrences[key] = occurrences.get(key, 0) + 1
            first.setdefault(key, index)
    return occurrences, first


def _referred(
    held: list[object], first: dict[int, int], occurrences: dict[int, int]
) -> dict[int, int]:
    """The unreached held values something besides `held` refers to, with
    the number of those references (a value with none is dead)."""
    return {
        key: extra
        for key, index in first.items()
        if (extra := sys.getrefcount(held[index]) - 1 - occurrences[key]) > 0
    }


def _inner_references(
    held: list[object], first: dict[int, int], referred: dict[int, int]
) -> dict[int, int]:
    """For each referred value: how many of its references come from the
    other referred values (cycles among values the program dropped)."""
    inside = dict.fromkeys(referred, 0)
    for key in referred:
        for child in _children(held[first[key]]):
            other = id(child)
            if other in inside:
                inside[other] += 1
    return inside


def _external(held: list[object], seen: set[int]) -> list[int]:
    """Indices in `held` of the values no root reaches but something else
    (invisible to the walk) still refers to.

    A value's reference count includes one reference per entry of `held` and
    the argument of getrefcount; a value with more is referred to, and is
    external unless those references come from other referred values (a
    cycle the program dropped, which is dead). A value referred to only by
    a dead container counts as external once: the container is released now,
    the value at the next census. (The counting is done in helper
    functions, whose local references are gone when the counts are read.)"""
    occurrences, first = _unreached(held, seen)
    referred = _referred(held, first, occurrences)
    inside = _inner_references(held, first, referred)
    return [first[key] for key, extra in referred.items() if extra > inside[key]]


def measure(roots: list[object], held: list[object]) -> Census:
    """The live units reachable from `roots` and from the held values still
    referred to; the held values that survive."""
    seen: set[int] = set()
    live, visited = _walk(roots, seen)
    more, more_visited = _walk([held[i] for i in _external(held, seen)], seen)
    survivors: list[object] = []
    kept: set[int] = set()
    for value in held:
        key = id(value)
        if key in seen and key not in kept:
            kept.add(key)
            survivors.append(value)
    return Census(live + more, survivors, visited + more_visited + len(held))
