"""A token bucket per API key, in memory: `rate` requests a second sustained, `burst` at once.

In memory means per process: several server processes each allow the full rate. The table holds
one small entry per key seen, and keys are few (they are made by hand), so it is never pruned.
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
    def __init__(self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last refill time)

    def take(self, key: str) -> Verdict:
        if self.rate <= 0:
            return Verdict(True)
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return Verdict(True)
            self._buckets[key] = (tokens, now)
        return Verdict(False, max(1, math.ceil((1.0 - tokens) / self.rate)))
