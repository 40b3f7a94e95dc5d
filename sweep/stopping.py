"""Stopping a sweep on Ctrl-C (SIGINT) or SIGTERM.

The driver's handler only records the signal; the executors look at it
between waits, pass it on to the running episodes (which stop cleanly,
their traces closed), start nothing more, and return; the runner then
writes sweep.json and the leaderboard and raises `Stopped`. Raising from
the handler itself could interrupt the process pool's own bookkeeping
halfway (a lock held, a queue half-written) and hang the shutdown. A second
signal exits at once: every trace line is already in the kernel.
"""

from __future__ import annotations

import os
import signal
import threading

SIGNALS = (signal.SIGINT, signal.SIGTERM)
POLL = 0.1  # seconds between looks at the flag while episodes run


class Stopped(Exception):
    """The sweep was stopped by a signal; `--resume` continues it."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


class StopSignals:
    """Records the first stop signal while active (main thread only);
    calling it gives that signal's number, or None."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._previous: list[tuple[int, object]] = []

    def __call__(self) -> int | None:
        return self.signum

    def _on_signal(self, signum: int, frame: object) -> None:
        if self.signum is not None:
            os._exit(128 + signum)
        self.signum = signum

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in SIGNALS:
                self._previous.append((signum, signal.signal(signum, self._on_signal)))
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self._previous:
            signal.signal(signum, previous)
        self._previous.clear()


def never() -> int | None:
    return None
