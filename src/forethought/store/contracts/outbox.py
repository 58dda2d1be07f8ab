"""OutboxStore: work owed to committed records (embeddings made later), retried until done."""

from __future__ import annotations

from abc import ABC, abstractmethod

from forethought.store.types import Job, Vector

__all__ = ["OutboxStore"]


class OutboxStore(ABC):
    """Jobs queued in the same transaction as the record they serve, so none is ever lost.

    Every method may raise `StoreBusy` and `BackendError`.
    """

    @abstractmethod
    def claim(self, *, limit: int, lease_s: float = 60.0) -> list[Job]:
        """Due jobs, leased for `lease_s` so other processes skip them meanwhile."""

    @abstractmethod
    def complete_embedding(self, job: Job, vector: Vector, evidence: tuple[str, Vector] | None = None) -> None:
        """Store the vector owed by an embed job (with `evidence`, the record's first quote's: its
        `quote_digest` and vector) and delete the job, atomically. Idempotent: a job already done,
        or whose record was erased meanwhile, is a no-op. Raises InvalidInput for a vector of the
        wrong shape."""

    @abstractmethod
    def retry(self, job: Job, error: str, *, delay_s: float) -> None:
        """Record a failed attempt; the job becomes due again after `delay_s`."""

    @abstractmethod
    def pending(self, space_id: str | None = None) -> int:
        """Jobs not done yet (of `space_id`, or of every space), leased or not."""
