"""Rate limits: a token bucket per key (a client address, a session).

A bucket holds at most `burst` requests and refills at `rate` per second;
a request that finds it empty is refused with the seconds until the next
token. The clock is injected, so the limiter's decisions are tested without
depending on the machine's speed. The number of keys is bounded: when full,
the keys whose buckets have refilled completely (they remember nothing) are
dropped first, and a flood of new keys cannot grow the table past `max_keys`.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    per_second: float
    burst: int

    def __post_init__(self) -> None:
        if self.per_second < 0 or self.burst < 1:
            raise ValueError("a rate needs per_second >= 0 and burst >= 1")


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class Limiter:
    def __init__(
        self, rate: Rate, clock: Callable[[], float] = time.monotonic, max_keys: int = 10_000
    ) -> None:
        self.rate = rate
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def _refilled(self, bucket: _Bucket, now: float) -> float:
        return min(
            float(self.rate.burst), bucket.tokens + (now - bucket.stamp) * self.rate.per_second
        )

    def take(self, key: str) -> float:
        """0.0 when the request may go ahead, else the seconds to wait."""
        with self._lock:
            now = self.clock()
            bucket = self._buckets.get(key)
            if bucket is None:
                self._make_room(now)
                bucket = self._buckets[key] = _Bucket(float(self.rate.burst), now)
            self._buckets.move_to_end(key)
            bucket.tokens, bucket.stamp = self._refilled(bucket, now), now
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            if self.rate.per_second == 0:
                return float("inf")
            return (1.0 - bucket.tokens) / self.rate.per_second

    def _make_room(self, now: float) -> None:
        if len(self._buckets) < self.max_keys:
            return
        for key in [
            k for k, b in self._buckets.items() if self._refilled(b, now) >= self.rate.burst
        ]:
            del self._buckets[key]
        while len(self._buckets) >= self.max_keys:
            # every bucket is in use: the least recently seen key starts afresh
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)
