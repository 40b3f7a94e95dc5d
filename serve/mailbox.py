"""The hand-off between the episode driver and the participant's browser.

The driver runs in a worker thread and asks its (human) agent for a reply;
the agent's player posts the question here (with the page's view of it) and
blocks until an HTTP handler, on the server's event loop, delivers the
participant's action for exactly that question. The handler then awaits the next change
(the driver's next request, the episode's end, or its failure) so that its
response already shows the probe's feedback, and so that a reply the server
acknowledged is already in the trace.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass

from alienworlds.episode.agent import AgentError


class Stale(Exception):
    """A reply for a request that is not the one waiting (answered already,
    or never asked): the page was out of date, or the request key forged."""


class Stopped(AgentError):
    """The server is stopping: the episode ends here and resumes on restart."""


@dataclass(frozen=True)
class Posted:
    key: str | None  # the request's key; None when nothing waits for the participant
    view: dict  # what the participant's page shows (serve.view)


class Mailbox:
    def __init__(self, loop: asyncio.AbstractEventLoop, initial: dict) -> None:
        self._loop = loop
        self._cond = threading.Condition()
        self._waiters: list[asyncio.Future] = []
        self._posted = Posted(None, initial)
        self._reply: object | None = None
        self._stopping = False
        self.version = 0

    # -- the driver's side (worker thread) ------------------------------------
    def ask(self, key: str, view: dict) -> object:
        """Show `view` and wait for the participant's answer to question `key`."""
        with self._cond:
            self._reply = None
            self._set(Posted(key, view))
            while self._reply is None and not self._stopping:
                self._cond.wait()
            if self._reply is None:
                raise Stopped("the server stopped; the session resumes when it restarts")
            reply, self._reply = self._reply, None
            return reply

    def show(self, view: dict) -> None:
        """A state that waits for no reply (working, finished, failed)."""
        with self._cond:
            self._set(Posted(None, view))

    def _set(self, posted: Posted) -> None:
        self._posted = posted
        self.version += 1
        for waiter in self._waiters:
            self._loop.call_soon_threadsafe(_wake, waiter)
        self._waiters.clear()

    # -- the server's side (event loop) ---------------------------------------
    @property
    def posted(self) -> Posted:
        with self._cond:
            return self._posted

    def deliver(self, key: str, reply: object) -> int:
        """Hand `reply` to the driver if it waits on question `key`; the
        version to wait past for the outcome."""
        with self._cond:
            if self._posted.key is None or self._posted.key != key or self._reply is not None:
                raise Stale(key)
            self._reply = reply
            self._posted = Posted(None, {**self._posted.view, "phase": "working"})
            self._cond.notify_all()
            return self.version

    async def changed(self, since: int, timeout: float) -> bool:
        """Wait until the version passes `since`; False on timeout."""
        with self._cond:
            if self.version != since:
                return True
            waiter = self._loop.create_future()
            self._waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return False
        return True

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()


def _wake(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_result(None)
