"""What a site's manual result is on each sample case, and how a
template's value is judged against it."""

from __future__ import annotations

from collections.abc import Callable

from .samples import Made, has_made, key, same


def _objects(case: tuple) -> list[object]:
    out = list(case)
    for v in case:
        if type(v) in (list, tuple):
            out.extend(v)
    return out


def _alias_ok(case: tuple, value: object, expected: object) -> bool:
    """A list result must be a fresh list where the manual makes one, and
    the very same list where the manual gives one it already had (a
    later ANNEX to it must be seen, or not seen, the same way)."""
    if type(value) is not list:
        return True
    objects = _objects(case)
    if any(expected is o for o in objects):
        return value is expected
    return not any(value is o for o in objects)


class Expectation:
    """The manual's result on each case, by case identity, and how to read
    a value the program holds (tuples a caller built with KNOT are read in
    KNOT's argument order)."""

    def __init__(self, knot: Callable[..., object]) -> None:
        self.results: dict[int, object] = {}
        self.forced: dict[int, bool] = {}
        self.knot = knot
        self.to_manual: dict[int, object] = {}  # id of a value the program holds -> what it means
        self.to_raw: dict[int, object] = {}
        self.keep: list[object] = []  # keeps converted values (and their ids) alive
        self.keys: dict[int, str] = {}

    def value(self, case: tuple) -> object:
        return self.results[id(case)]

    def expect(self, case: tuple, result: object) -> None:
        self.results[id(case)] = result
        self.keys[id(case)] = key(result)

    def convert(self, v: object) -> tuple[object, object]:
        """(what the program receives, what it means) for a sample value."""
        if type(v) is Made:
            parts = [self.convert(x) for x in v.args]
            raw, manual = self.knot([p[0] for p in parts]), tuple(p[1] for p in parts)
        elif type(v) in (list, tuple) and has_made(v):
            parts = [self.convert(x) for x in v]
            raw, manual = type(v)(p[0] for p in parts), type(v)(p[1] for p in parts)
        else:
            return v, v
        self.to_manual[id(raw)] = manual
        self.to_raw[id(manual)] = raw
        self.keep.extend((raw, manual))
        return raw, manual

    def meaning(self, v: object) -> object:
        if not self.to_manual:
            return v
        if id(v) in self.to_manual:
            return self.to_manual[id(v)]
        if type(v) in (list, tuple):
            return type(v)(self.meaning(x) for x in v)
        return v

    def alias_ok(self, case: tuple, value: object) -> bool:
        expected = self.value(case)
        if id(expected) in self.to_raw:
            return value is self.to_raw[id(expected)]
        return _alias_ok(case, value, expected)

    def same(self, case: tuple, value: object) -> bool:
        if not self.to_manual:
            return key(value) == self.keys[id(case)]
        return same(self.meaning(value), self.value(case))
