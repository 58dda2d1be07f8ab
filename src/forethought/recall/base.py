"""RecallEngine: who answers recall for a Memory — the built-in hybrid search over the store, or
an engine that keeps its own index outside it (Hindsight) while records, statuses, review and
audit stay in the store.

Every engine returns records the store holds, of the space asked and matching the filter:
whatever an outside index proposes is re-read from the store, and what fails that check is
dropped and counted (`RecallResult.dropped`) — isolation fails closed, whatever the index says.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from forethought.embed.base import Embedder
from forethought.recall.engine import RecallRequest, run_recall
from forethought.recall.results import RecallResult
from forethought.store.base import Store

__all__ = ["BuiltinEngine", "RecallEngine", "ReconcileReport", "SyncReport"]


@dataclass(frozen=True)
class SyncReport:
    """What one pass over the index-sync queue did."""

    done: int = 0
    failed: int = 0
    pending: int = 0


@dataclass(frozen=True)
class ReconcileReport:
    """What reconciling the store with an outside index found and fixed (counts, never content)."""

    checked: int = 0  # records of the store looked at
    added: int = 0  # current records the index lacked (or held with other text)
    retagged: int = 0  # documents whose tags (space, kind, area, status) had drifted
    deleted: int = 0  # documents of records gone from the store, or never meant to be indexed


class RecallEngine(ABC):
    """Answers `recall` for one store. `remote` says the engine keeps an index outside the store,
    kept in step through the store's index-sync queue (`sync`) and checked by `reconcile`.

    `recall` raises what the store raises (`StoreBusy`, `BackendError`); an outside index that is
    down is the engine's to handle (the Hindsight engine answers from the built-in search then,
    saying so in `RecallResult.unavailable`).
    """

    name: str = "engine"
    remote: bool = False

    def attach(self, store: Store) -> None:
        """Called once when a Memory opens on `store` (an outside index starts its sync here)."""
        return None

    @abstractmethod
    def recall(self, store: Store, embedder: Embedder | None, request: RecallRequest) -> RecallResult:
        """The records of `request.space_id` most relevant to the query, best first, at most
        `request.k`, within the token budget, each one re-read from the store."""

    def sync(self, store: Store, *, limit: int = 256) -> SyncReport:
        """Bring the outside index up to date with up to `limit` queued changes (nothing to do
        for an engine without one)."""
        return SyncReport(pending=store.index_sync.pending() if self.remote else 0)

    def reconcile(self, store: Store) -> ReconcileReport:
        """Compare every record of the store with the outside index and fix the drift."""
        return ReconcileReport()

    def describe(self) -> dict[str, Any]:
        """What `doctor` shows about the engine (no secrets, no content)."""
        return {"engine": self.name}

    def close(self) -> None:
        """Release what the engine holds outside the store (connections to its index)."""
        return None


class BuiltinEngine(RecallEngine):
    """Hybrid recall over the store's own indexes (`recall.engine.run_recall`): keyword, semantic
    and exact-term searches fused with pool signals. Nothing to sync."""

    name = "builtin"

    def recall(self, store: Store, embedder: Embedder | None, request: RecallRequest) -> RecallResult:
        return run_recall(store, embedder, request)
