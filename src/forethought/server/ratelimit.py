"""Token buckets: `rate` tokens a second sustained, `burst` at once, one bucket per name.

Used per API key (requests), per key (browser logins) and per client address and claimed key id
(failed authentication). Two kinds, behind one `Limiter` seam:

- `RateLimiter` counts in this process's memory: nothing is cheaper, and it is exact while one
  process serves the database. Its table is bounded by `max_names`: past it, buckets that have
  filled up again (which mean the same as no bucket) are dropped first, then the least recently
  used, so a flood of new client addresses costs at most `max_names` small entries.
- `StoredRateLimiter` spends from the database's buckets (`store.limits`), so several server
  processes, or several hosts on one PostgreSQL database, share one budget instead of each
  allowing the full rate. Every `take` is one write; every `prune_every` takes in a process the
  table is pruned the same way (so it holds at most `max_names` plus what the processes took
  since their last pruning).

`limiter(...)` picks one (see `Services`: the database when workers > 1 or the store is a server
others may share). Names carry a prefix per use (`api:`, `auth:`, `login:`) so the uses never
share a bucket in one table; they hold key ids and client addresses, never key material.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable

from forethought.store.contracts.limits import LimitStore, Verdict

__all__ = ["Limiter", "RateLimiter", "StoredRateLimiter", "Verdict", "limiter"]


class Limiter(ABC):
    """Token buckets by name; `rate` <= 0 allows everything."""

    rate: float
    burst: int

    @abstractmethod
    def take(self, name: str) -> Verdict:
        """Spend one token of `name`'s bucket, if it has one."""

    @abstractmethod
    def peek(self, name: str) -> Verdict:
        """Whether `name` has a token left, without spending it."""


class RateLimiter(Limiter):
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
        if self.rate <= 0:
            return Verdict(True)
        now = self._clock()
        with self._lock:
            tokens = self._refilled(name, now)
            allowed = tokens >= 1.0
            self._store(name, tokens - 1.0 if allowed else tokens, now)
        return Verdict(True) if allowed else self._refusal(tokens)

    def peek(self, name: str) -> Verdict:
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


class StoredRateLimiter(Limiter):
    """Buckets in the database (`store.limits`), names under `prefix`; `clock` is wall-clock
    seconds, the one clock every process agrees on."""

    def __init__(
        self,
        buckets: LimitStore,
        prefix: str,
        rate: float,
        burst: int,
        *,
        max_names: int = 100_000,
        prune_every: int = 1_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_names = max_names
        self._buckets = buckets
        self._prefix = prefix
        self._clock = clock
        self._prune_every = prune_every
        self._takes = itertools.count(1)  # thread-safe enough: next() on a count is atomic under the GIL

    def take(self, name: str) -> Verdict:
        if self.rate <= 0:
            return Verdict(True)
        now = self._clock()
        verdict = self._buckets.take(self._prefix + name, self.rate, self.burst, now)
        if next(self._takes) % self._prune_every == 0:
            self._buckets.prune(now, self.max_names)
        return verdict

    def peek(self, name: str) -> Verdict:
        return self._buckets.peek(self._prefix + name, self.rate, self.burst, self._clock())


def limiter(rate: float, burst: int, *, prefix: str, shared: LimitStore | None) -> Limiter:
    """The database's buckets under `prefix` when `shared` is given, else this process's own."""
    if shared is None:
        return RateLimiter(rate, burst)
    return StoredRateLimiter(shared, prefix, rate, burst)
