"""Whether an answer passes a task, kept across graders while a job asks.

`aliencode world generate` audits the bank it drew in the same process, and
the audit's battery grades again the answers the generation's battery graded
(a fresh grader per task drawn, and another for the bank read back): most of
the audit's time, nearly all of it compiling. A verdict depends only on the
task (every field but its id and `extra`: the reference, calls, inputs and
solutions fix the expected outputs and the answer budget), the world (its
hash), the limits and the answer: under a digest of those it is found again.
The interpreter is deterministic, so the verdict found is the one grading
again would give.

The memo is off unless a job switches it on (`kept`): a long job meets its
own answers again, a server or a test suite would only hold them. It is
bounded by its number of verdicts, least recently used going first.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# generating eval-c grades about 36,000 answers; a verdict costs about 100 bytes
KEPT_VERDICTS = 262_144


class VerdictMemo:
    def __init__(self, bound: int = KEPT_VERDICTS) -> None:
        self.bound = bound
        self._found: dict[bytes, bool] = {}
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

    def __len__(self) -> int:
        return len(self._found)


VERDICTS = VerdictMemo()


def verdict_key(task_digest: bytes, world_hash: str, limits: object, answer_digest: bytes) -> bytes:
    """One digest of everything a verdict depends on (`task_digest`: the
    task's fields but its id and `extra`; `limits` by its repr)."""
    h = hashlib.blake2b(digest_size=20)
    for part in (task_digest, world_hash.encode(), repr(limits).encode(), answer_digest):
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.digest()
