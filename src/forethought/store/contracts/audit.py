"""AuditLog: the events every change leaves behind, read back newest first."""

from __future__ import annotations

from abc import ABC, abstractmethod

from forethought.domain import AuditEvent

__all__ = ["AuditLog"]


class AuditLog(ABC):
    """Audit events are written by the other contracts, in the transaction of the change they
    describe (`ChangeSet.events`, `SessionStore.add`, erasures); this contract only reads them.
    Events carry ids and actions, never record text.
    """

    @abstractmethod
    def events(
        self, space_id: str, *, record_id: str | None = None, limit: int = 100, before_seq: int | None = None
    ) -> list[AuditEvent]:
        """The space's events (about `record_id` when given), newest first; with `before_seq`, only
        older ones (a keyset cursor). May raise `StoreBusy` and `BackendError`."""
