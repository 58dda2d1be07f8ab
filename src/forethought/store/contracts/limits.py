"""LimitStore: token buckets kept in the database, so that every server process (and every host
on one PostgreSQL database) spends from the same budget."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

__all__ = ["LimitStore", "Verdict"]


@dataclass(frozen=True)
class Verdict:
    """Whether a token was there to spend, and if not, how long until one is."""

    allowed: bool
    retry_after_s: int = 0  # whole seconds until one token is back (0 when allowed)


class LimitStore(ABC):
    """Token buckets by name: `rate` tokens a second sustained, `burst` at most, a bucket that was
    never seen (or was pruned) being full. `now` is wall-clock seconds (`time.time()`), the clock
    every process agrees on; a clock going back refills nothing. Names are ids and addresses, never
    secrets (the scrubbing chokepoint sees them all the same). Every method may raise `StoreBusy`
    and `BackendError`."""

    @abstractmethod
    def take(self, name: str, rate: float, burst: int, now: float) -> Verdict:
        """Spend one token of `name`'s bucket if it has one, atomically with reading it: two
        processes taking at once never both spend the last token."""

    @abstractmethod
    def peek(self, name: str, rate: float, burst: int, now: float) -> Verdict:
        """Whether `name` has a token left, without spending it (writes nothing)."""

    @abstractmethod
    def prune(self, now: float, max_names: int) -> int:
        """Forget the buckets that have filled up again (they mean the same as none), then, past
        `max_names`, the least recently used down to nine tenths of it; returns how many are left."""

    @abstractmethod
    def count(self) -> int:
        """Buckets held."""
