"""Per-endpoint limits: at most N requests in flight to one base URL across
every episode of a sweep, in whatever process or on whatever node each runs.

One `Gate` per limited endpoint lives in a single place that every worker
reaches: locally in a `multiprocessing` manager process (workers hold
proxies to it), on Ray in a threaded actor. A worker wraps its agent in a
`GatedAgent`, which takes a permit around each request (the SDK's retries
and back-off included, so a throttled endpoint is not pressed harder).
Permits are held per episode (`holder`): when an episode ends, however it
ends, its worker returns whatever it still holds, and when a worker dies
the driver does so for it, so a killed worker leaks no permit.

Partitioning the limit among workers was the alternative, with no shared
service; it wastes the share of a worker whose episodes are idle or
between requests, and cannot follow a Ray cluster whose workers come and
go, so a shared counter was chosen.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from alienworlds.episode.agent import Agent, Reply, Request


class Gate:
    """A counting semaphore whose permits are accounted per holder."""

    def __init__(self, limit: int) -> None:
        self.limit = int(limit)
        self._cond = threading.Condition()
        self._held: Counter[str] = Counter()
        self._peak = 0

    def acquire(self, holder: str) -> None:
        with self._cond:
            self._cond.wait_for(lambda: sum(self._held.values()) < self.limit)
            self._held[holder] += 1
            self._peak = max(self._peak, sum(self._held.values()))

    def release(self, holder: str) -> None:
        with self._cond:
            if self._held[holder] > 0:
                self._held[holder] -= 1
            if not self._held[holder]:
                del self._held[holder]
            self._cond.notify_all()

    def release_all(self, holder: str) -> int:
        """Return every permit `holder` holds (its episode ended or its
        worker died); how many there were."""
        with self._cond:
            count = self._held.pop(holder, 0)
            self._cond.notify_all()
            return count

    def stats(self) -> dict[str, int]:
        with self._cond:
            return {"limit": self.limit, "in_flight": sum(self._held.values()), "peak": self._peak}


class GatedAgent(Agent):
    """An agent whose every request waits for a permit of its endpoint.
    Everything else (identity, runtime, concurrency) is the wrapped agent's,
    so the trace is the same as without the gate."""

    def __init__(self, inner: Agent, permits: Permits) -> None:
        self.inner = inner
        self.permits = permits
        self.name = inner.name
        self.offline = inner.offline
        self.concurrency = inner.concurrency
        runtime = getattr(inner, "runtime", None)
        if callable(runtime):
            self.runtime = runtime

    def config(self) -> dict[str, object]:
        return self.inner.config()

    def respond(self, request: Request) -> Reply:
        return self.inner.respond(request)

    async def respond_async(self, request: Request) -> Reply:
        await self.permits.acquire()
        try:
            return await self.inner.respond_async(request)
        finally:
            self.permits.release()

    async def aclose(self) -> None:
        await self.inner.aclose()

    def close(self) -> None:
        self.inner.close()


@dataclass(frozen=True)
class Permits:
    """How one episode takes and returns permits of its endpoint's gate."""

    acquire: Callable[[], Awaitable[None]]
    release: Callable[[], None]
    release_all: Callable[[], int]  # blocking: done before the episode (re)starts


def local_permits(gate: Gate, holder: str) -> Permits:
    """For a gate reached by blocking calls (a manager proxy, or the object
    itself): the wait runs in a thread so the event loop stays free. A wait
    cancelled by a stop signal may still get its permit later; the
    episode's `release_all` returns it."""

    async def acquire() -> None:
        await asyncio.to_thread(gate.acquire, holder)

    return Permits(acquire, lambda: gate.release(holder), lambda: gate.release_all(holder))


def ray_permits(actor: object, holder: str) -> Permits:
    """For a gate held by a Ray actor (an ObjectRef is awaitable)."""

    async def acquire() -> None:
        await actor.acquire.remote(holder)

    def release_all() -> int:
        import ray

        return ray.get(
            actor.release_all.remote(holder)
        )  # waited for: a threaded actor keeps no call order

    return Permits(acquire, lambda: actor.release.remote(holder), release_all)
