"""The façade's upkeep: work owed to committed records, and the recall engine's outside index.

`Forethought` inherits these, so they are façade methods like the others (one line each, handing
over to the memory core); they live here only to keep the façade's module within its size.
"""

from __future__ import annotations

from contextlib import closing
from typing import Any

from forethought.memory import Memory, OutboxReport
from forethought.recall import RecallEngine, ReconcileReport, SyncReport

__all__ = ["Upkeep"]


class Upkeep:
    memory: Memory

    @property
    def engine(self) -> RecallEngine:
        """Who answers recall: the built-in hybrid search, or an engine with its own index."""
        return self.memory.engine

    def stats(self) -> dict[str, Any]:
        """What the store reports about itself (never content)."""
        return self.memory.store.stats()

    def drain_outbox(self, *, limit: int = 256) -> OutboxReport:
        """Do owed work (embeddings the embedder could not make at retain time)."""
        return self.memory.drain_outbox(limit=limit)

    def sync_index(self, *, limit: int = 256) -> SyncReport:
        """Send queued record changes to the recall engine's outside index (Hindsight), if any."""
        return self.memory.sync_index(limit=limit)

    def reconcile_index(self) -> ReconcileReport:
        """Compare every record with the recall engine's outside index and fix what drifted."""
        return self.memory.reconcile_index()

    def close(self) -> None:
        """Release the recall engine's connections, then the store (even if the first fails)."""
        with closing(self.memory.store):
            self.memory.engine.close()
