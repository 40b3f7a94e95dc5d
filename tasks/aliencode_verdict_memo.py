"""Whether an answer passes a task, kept across graders while a job asks.

`aliencode world generate` audits the bank it drew in the same process, and
the audit's battery grades again the answers the generation's battery graded
(a fresh grader per task drawn, and another for the bank read back): most of
the audit's time, nearly all of it compiling. A verdict depends only on the
task (every field but its id and `extra`: the reference, calls, inputs and
solutions fix the expected outputs and the answer budget), the world, the
limits and the answer: under a digest of those it is found again. The
interpreter is deterministic, so the verdict found is the one grading again
would give.

Of the world only what the runs can meet counts: its keywords, and the rules
at the sites the answer's and the task's programs reach (`sites_in`: a rule
acts only at its site, the assumption the audit's rule entry rests on too).
A generator that draws one rule of a world again, keeping the rest, grades
the same answers to the same tasks again: those whose programs reach neither
rule find their verdicts (`world_seen`).

The memo is off unless a job switches it on (`kept`): a long job meets its
own answers again, a server or a test suite would only hold them. It is
bounded by its number of verdicts, least recently used going first.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager

from alienworlds.ruleset import World

# generating eval-c grades about 36,000 answers; a verdict costs about 100 bytes
KEPT_VERDICTS = 262_144


class VerdictMemo:
    def __init__(self, bound: int = KEPT_VERDICTS) -> None:
        self.bound = bound
        self._found: dict[bytes, bool] = {}
        self._sites: dict[bytes, frozenset[str]] = {}  # by the answer's digest
        self._on = 0  # jobs that asked for it, nested
        self._lock = threading.Lock()

    @property
    def on(self) -> bool:
        return self._on > 0

    @contextmanager
    def kept(self) -> Iterator[None]:
        """Keep verdicts for the block; they are dropped when the last such block ends."""
        with self._lock:
            self._on += 1
        try:
            yield
        finally:
            with self._lock:
                self._on -= 1
                if not self._on:
                    self._found.clear()
                    self._sites.clear()

    def passes(self, key: bytes, grade: Callable[[], bool]) -> bool:
        """The verdict under `key`, from `grade` when it is not kept."""
        if not self.on:
            return grade()
        with self._lock:
            hit = self._found.pop(key, None)
            if hit is not None:
                self._found[key] = hit  # now the most recently used
                return hit
        verdict = grade()
        with self._lock:
            if self.on:
                self._found[key] = verdict
                while len(self._found) > self.bound:
                    del self._found[next(iter(self._found))]
        return verdict

    def sites(self, answer_digest: bytes, find: Callable[[], frozenset[str]]) -> frozenset[str]:
        """The sites an answer reaches, from `find` when not kept (parsing a
        long answer again costs a good part of compiling it)."""
        with self._lock:
            hit = self._sites.get(answer_digest)
        if hit is not None:
            return hit
        found = find()
        with self._lock:
            if self.on:
                self._sites[answer_digest] = found
                while len(self._sites) > self.bound:
                    del self._sites[next(iter(self._sites))]
        return found

    def __len__(self) -> int:
        return len(self._found)


VERDICTS = VerdictMemo()


def world_seen(world: World, sites: Collection[str]) -> bytes:
    """A digest of what runs reaching only `sites` can meet of `world`: its
    keywords, and its rules at those sites (their order, scopes and
    expressions; not their ids or names, which a rule drawn again renumbers)."""
    seen = (
        sorted(world.keywords.items()),
        [(r.target, r.actual, r.layer, r.scope) for r in world.rules if r.target in sites],
    )
    return hashlib.blake2b(repr(seen).encode(), digest_size=20).digest()


def verdict_key(task_digest: bytes, seen: bytes, limits: object, answer_digest: bytes) -> bytes:
    """One digest of everything a verdict depends on (`task_digest`: the
    task's fields but its id and `extra`; `seen`: see `world_seen`;
    `limits` by its repr)."""
    h = hashlib.blake2b(digest_size=20)
    for part in (task_digest, seen, repr(limits).encode(), answer_digest):
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.digest()
