"""IndexSyncStore: what a remote recall engine still owes the store, queued with every change."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from forethought.store.types import SyncJob

__all__ = ["IndexSyncStore"]


class IndexSyncStore(ABC):
    """Record ids whose state a remote index (a recall engine such as Hindsight) may not hold yet.

    Once `enable`d (a database-wide fact, so every process writing the database queues, whatever
    engine it recalls with), every change set, forgetting and space erasure queues the ids it
    touched in the same transaction as the change: none is lost. A job says only "look at this
    record again"; the worker reads the record's current state from the store and makes the index
    match it, so jobs are idempotent and their order does not matter. A job outlives its record
    (that is how a forgotten record's document gets deleted). Rows carry ids, never text.

    Every method may raise `StoreBusy` and `BackendError`.
    """

    @abstractmethod
    def enable(self) -> None:
        """Start queueing (idempotent). Records written before are not queued: reconcile them."""

    @abstractmethod
    def enabled(self) -> bool:
        """Whether changes are being queued."""

    @abstractmethod
    def queue(self, space_id: str, record_ids: Sequence[str]) -> None:
        """Queue these ids of `space_id` now (a later generation if one is queued already), even
        when queueing is not enabled (reconcile uses it to hand work to the worker)."""

    @abstractmethod
    def claim(self, *, limit: int, lease_s: float = 60.0) -> list[SyncJob]:
        """Due jobs, oldest first, leased for `lease_s` so other workers skip them meanwhile; a
        change queued for a leased record waits for the lease to end (one worker per record)."""

    @abstractmethod
    def done(self, job: SyncJob) -> bool:
        """The job's state reached the index: delete it, unless a newer generation was queued
        meanwhile (then it is released, due now, and False is returned)."""

    @abstractmethod
    def retry(self, job: SyncJob, error: str, *, delay_s: float) -> None:
        """Record a failed attempt; the job becomes due again after `delay_s`."""

    @abstractmethod
    def pending(self, space_id: str | None = None) -> int:
        """Jobs not done yet (of `space_id`, or of every space), leased or not."""
