"""Facts about top-level statements, computed once per statement object.

The adaptive strategies of the battery (tasks/aliencode_compact.py,
tasks/aliencode_calibrating.py) put the same library statements (parsed
once, from lru-cached pieces) in front of thousands of candidate answers.
Walking or writing those statements out again for every candidate cost
most of the strategies' time. Syntax trees are immutable, so what a
statement holds and how it is written depend on the object alone: they are
kept here by identity (the memo holds the statement, so its id is not
reused while the entry lives).

`program_text(body, keywords)` is what `unparse(s.Program(body), keywords)`
gives: a program's text is its top-level statements' lines joined.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from aliencode import syntax as s
from aliencode.unparse import unparse

T = TypeVar("T")
LIMIT = 4096  # entries kept per memo before it starts afresh (bounds memory, not results)


class IdentityMemo:
    """Values computed from an object, kept by the object's identity."""

    def __init__(self) -> None:
        self._found: dict[tuple[int, object], tuple[object, object]] = {}

    def get(self, node: object, extra: object, make: Callable[[], T]) -> T:
        key = (id(node), extra)
        hit = self._found.get(key)
        if hit is not None and hit[0] is node:
            return hit[1]
        if len(self._found) >= LIMIT:
            self._found.clear()
        value = make()
        self._found[key] = (node, value)
        return value


_LINES = IdentityMemo()


def _keywords_key(keywords: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(keywords.items()))


def program_text(body: tuple[s.Stmt, ...], keywords: Mapping[str, str]) -> str:
    """`unparse(s.Program(body), keywords)`, each statement written once."""
    spelling = _keywords_key(keywords)
    texts = [
        _LINES.get(st, spelling, lambda st=st: unparse(s.Program((st,)), keywords)) for st in body
    ]
    return "".join(texts)
