"""Run an episode's coroutine so that Ctrl-C (SIGINT) or SIGTERM stops it
cleanly and at once.

The first signal cancels the episode's task: no new request starts, the
requests in flight are cancelled (their connections closed), every reply
already received stays in the trace, and the trace is closed. `Interrupted`
then tells the caller which signal it was. A second signal exits the
process immediately (every trace line is already flushed to the kernel).

A process may give a signal back to its default (`leave_to_default`): a
sweep's pool worker does so with SIGTERM, which its pool sends to kill it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Coroutine
from typing import TypeVar

T = TypeVar("T")
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_left_to_default: set[int] = (
    set()
)  # in this process, these signals do what they would without an episode


class Interrupted(Exception):
    """The run was stopped by a signal; `--resume` continues it."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


def leave_to_default(signum: int) -> None:
    """From now on, `signum` never stops an episode of this process
    cleanly: it keeps whatever disposition the process gave it."""
    _left_to_default.add(signum)


def run_until_signal(coroutine: Coroutine[object, object, T]) -> T:
    """Run `coroutine` in a fresh event loop; raise `Interrupted` when a
    stop signal cancelled it."""
    with asyncio.Runner() as runner:
        loop = runner.get_loop()
        task = loop.create_task(coroutine)
        received: list[int] = []

        def on_signal(signum: int) -> None:
            if received:
                os._exit(128 + signum)
            received.append(signum)
            task.cancel()

        installed = []
        if threading.current_thread() is threading.main_thread():
            for signum in (s for s in STOP_SIGNALS if s not in _left_to_default):
                installed.append((signum, signal.getsignal(signum)))
                loop.add_signal_handler(signum, on_signal, signum)
        try:
            return loop.run_until_complete(task)
        except asyncio.CancelledError:
            if received:
                raise Interrupted(received[0]) from None
            raise
        finally:
            for signum, previous in installed:
                loop.remove_signal_handler(signum)
                signal.signal(signum, previous)
