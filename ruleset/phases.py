"""Phases that name themselves: a line when a phase starts, a line with its
wall time when it ends, and in between, while it runs longer, a line every
HEARTBEAT seconds, so that a log never goes quiet for long (a bank audit or
an exploration scoring takes tens of seconds on a loaded machine).

    phases = Phases(write=lambda line: print(line, file=sys.stderr), prefix="oracle ")
    with phases.phase("scoring exploration") as timer:
        ...
    timer.seconds   # the phase's wall time

The start and end lines depend only on what runs; the heartbeat lines (the
only ones that depend on the machine's speed) say how long the phase has
run so far and, when the caller gives a `status`, how far it got.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

HEARTBEAT = 1.0  # seconds between the lines of a running phase: a silence stays under 2 s
# even when a long collection or compile holds the interpreter lock for most of a second


@dataclass
class Timer:
    """A phase's wall time, set when it ends."""

    seconds: float = 0.0


@dataclass
class Phases:
    """`write(line)` gets each line (no newline); `heartbeat` None turns the
    lines between start and end off; `write` None turns everything off."""

    write: Callable[[str], None] | None
    prefix: str = ""
    heartbeat: float | None = HEARTBEAT
    clock: Callable[[], float] = time.monotonic
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def say(self, text: str) -> None:
        """One line, with the prefix."""
        if self.write is None:
            return
        with self._lock:
            self.write(f"{self.prefix}{text}")

    @contextmanager
    def phase(self, name: str, status: Callable[[], str] | None = None) -> Iterator[Timer]:
        """Announce `name`, run the block, then say how long it took (not
        when the block raises: the caller reports the failure)."""
        timer = Timer()
        started = self.clock()
        self.say(f"{name} …")
        stop = threading.Event()
        beat = None
        if self.write is not None and self.heartbeat:
            beat = threading.Thread(
                target=self._beat, args=(name, status, started, stop), daemon=True
            )
            beat.start()
        try:
            yield timer
        finally:
            stop.set()
            if beat is not None:
                beat.join()
            timer.seconds = self.clock() - started
        self.say(f"{name}: done in {timer.seconds:.1f} s")

    def _beat(
        self, name: str, status: Callable[[], str] | None, started: float, stop: threading.Event
    ) -> None:
        while not stop.wait(self.heartbeat):
            try:
                detail = f" · {status()}" if status is not None else ""
                self.say(f"{name}: {self.clock() - started:.0f} s so far{detail}")
            except BaseException:  # noqa: BLE001 - a lost stream: the main thread reports it on its next write
                return
