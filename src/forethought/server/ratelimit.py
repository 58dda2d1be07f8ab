"""Token buckets, in memory: `rate` tokens a second sustained, `burst` at once, one bucket per name.

Used per API key (requests), per key (browser logins) and per client address and claimed key id
(failed authentication). In memory means per process: several server processes each allow the
full rate. The table is bounded by `max_names`: past it, buckets that have filled up again (which
mean the same as no bucket) are dropped first, then the least recently used, so a flood of new
client addresses costs at most `max_names` small entries.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["RateLimiter", "Verdict"]


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after_s: int = 0  # whole seconds until one token is back (0 when allowed)


class RateLimiter:
    def __init__(
        self,
        rate: float,
        burst: int,
        *,
        max_names: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_names = max_names
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # name -> (tokens, last refill time), oldest first

    def take(self, name: str) -> Verdict:
        """Spend one token of `name`'s bucket, if it has one."""
        if self.rate <= 0:
            return Verdict(True)
        now = self._clock()
        with self._lock:
            tokens = self._refilled(name, now)
            allowed = tokens >= 1.0
            self._store(name, tokens - 1.0 if allowed else tokens, now)
        return Verdict(True) if allowed else self._refusal(tokens)

    def peek(self, name: str) -> Verdict:
        """Whether `name` has a token left, without spending it."""
        if self.rate <= 0:
            return Verdict(True)
        with self._lock:
            tokens = self._refilled(name, self._clock())
        return Verdict(True) if tokens >= 1.0 else self._refusal(tokens)

    def __len__(self) -> int:
        return len(self._buckets)

    def _refilled(self, name: str, now: float) -> float:
        tokens, last = self._buckets.get(name, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - last) * self.rate)

    def _store(self, name: str, tokens: float, now: float) -> None:
        self._buckets.pop(name, None)  # re-inserted last: the dict stays in least-recently-used order
        self._buckets[name] = (tokens, now)
        if len(self._buckets) > self.max_names:
            self._prune(now)

    def _prune(self, now: float) -> None:
        full = [n for n, (tokens, last) in self._buckets.items() if tokens + (now - last) * self.rate >= self.burst]
        for name in full:
            del self._buckets[name]
        keep = self.max_names * 9 // 10  # room for the next many, so pruning stays rare
        while len(self._buckets) > keep:
            del self._buckets[next(iter(self._buckets))]

    def _refusal(self, tokens: float) -> Verdict:
        return Verdict(False, max(1, math.ceil((1.0 - tokens) / self.rate)))
