"""Facts about statements of the top level, kept per statement object.

The parser gives back the same object for a statement of the top level it
parsed before at the same place (parser.py, `_by_pieces`), and a world
check compiles thousands of programs that share most of their statements.
The walks each compile makes of the whole tree (how deeply it nests, which
names loops and functions bind again, the probe units' facts) look at each
statement on its own, so each is done once per statement object and the
program's result is put together from its statements'. A fact is forgotten
with its statement.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import TypeVar

Fact = TypeVar("Fact")


class StatementMemo:
    """Facts by statement object and kind, kept while the statement lives
    (the parser's bounded cache, or a program in use, holds it): the memo
    holds no statement, so it keeps no tree alive. One lookup at a time
    (sessions of a server compile from several threads)."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref, dict[str, object]]] = {}
        # re-entrant: a statement may die, and be forgotten, while the lock is held
        self._lock = threading.RLock()

    def _forget(self, key: int, ref: weakref.ref) -> None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] is ref:
                del self._entries[key]

    def fact(self, statement: object, kind: str, compute: Callable[[object], Fact]) -> Fact:
        """`compute(statement)`, computed once per statement object (an
        exception is raised each time, never kept)."""
        key = id(statement)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0]() is not statement:
                ref = weakref.ref(statement, lambda ref, key=key: self._forget(key, ref))
                entry = self._entries[key] = (ref, {})
        facts = entry[1]
        if kind not in facts:
            facts[kind] = compute(statement)
        return facts[kind]  # type: ignore[return-value]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


MEMO = StatementMemo()
