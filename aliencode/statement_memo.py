"""Facts about statements of the top level, kept per statement object.

The parser gives back the same object for a statement of the top level it
parsed before at the same place (parser.py, `_by_statements`), and a world
check compiles thousands of programs that share most of their statements.
The walks each compile makes of the whole tree (how deeply it nests, which
names loops and functions bind again, the probe units' facts) look at each
statement on its own, so each is done once per statement object and the
program's result is put together from its statements'.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

Fact = TypeVar("Fact")

CAPACITY = 4096  # statements; the least recently used goes first


class StatementMemo:
    """Facts by statement object and kind; one lookup at a time (sessions
    of a server compile from several threads). An entry holds its
    statement, so an id is never taken for another object's while kept."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._entries: dict[int, tuple[object, dict[str, object]]] = {}
        self._lock = threading.Lock()

    def fact(self, statement: object, kind: str, compute: Callable[[object], Fact]) -> Fact:
        """`compute(statement)`, computed once per statement object (an
        exception is raised each time, never kept)."""
        with self._lock:
            entry = self._entries.pop(id(statement), None)
            if entry is None or entry[0] is not statement:
                entry = (statement, {})
            self._entries[id(statement)] = entry  # now the most recently used
            while len(self._entries) > self.capacity:
                del self._entries[next(iter(self._entries))]
        facts = entry[1]
        if kind not in facts:
            facts[kind] = compute(statement)
        return facts[kind]  # type: ignore[return-value]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


MEMO = StatementMemo()
