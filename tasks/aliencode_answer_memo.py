"""The adaptive strategies' candidate answers, kept per process.

`aliencode world generate` audits the bank it drew in the same process
(generate/audited_files.py), and the audit writes again, for every task,
the answers the generation's battery wrote for it: a quarter to a half of
the audit's time. A writer's answers depend only on its arguments: the
task (its id and `extra` aside, which no writer reads: a drawn task is
numbered when the bank is written, and its template named in `extra`),
what the writer is shown of the world (the manual spelled in the world's
keywords, no rules: tasks/aliencode_validity.py hands them nothing else) and
the answer budget. Under that key they are found again: in the audit, and
while generating in the worlds drawn again with one rule changed, where a
template whose port did not change makes the same task. The memo is bounded
by the characters it keeps, least recently used going first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from alienworlds.ruleset import World

from .aliencode_budget import Budget
from .bank import Task

# generating and auditing eval-a keep about 10 million (docs/performance.md)
KEPT_CHARS = 24_000_000


class AnswerMemo:
    """Lists of answers by key, bounded by their characters."""

    def __init__(self, bound: int = KEPT_CHARS) -> None:
        self.bound = bound
        self._found: dict[tuple, tuple[tuple[str, ...], int]] = {}
        self._held = 0
        self._lock = threading.Lock()  # a server audits from several threads

    def answers(self, key: tuple, write: Callable[[], list[str]]) -> list[str]:
        with self._lock:
            hit = self._found.pop(key, None)
            if hit is not None:
                self._found[key] = hit  # now the most recently used
                return list(hit[0])
        made = tuple(write())
        size = sum(map(len, made))
        with self._lock:
            if size <= self.bound and key not in self._found:
                self._found[key] = (made, size)
                self._held += size
                while self._held > self.bound:
                    oldest = next(iter(self._found))
                    self._held -= self._found.pop(oldest)[1]
        return list(made)

    def clear(self) -> None:
        with self._lock:
            self._found.clear()
            self._held = 0


MEMO = AnswerMemo()


def memo_key(task: Task, world: World, budget: Budget | None) -> tuple:
    """What a writer's answers depend on, the writer's name aside: every
    field of the task but its id and `extra` (`Task.content`), the hash of
    the world the writer is shown, the budget."""
    return (task.content(), world.hash, budget)
