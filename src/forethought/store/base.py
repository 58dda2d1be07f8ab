"""The Store seam: the system of record and its search indexes.

A store is several narrow contracts that one backend implements together, because they share
one connection and one transaction; the backend's root `Store` owns them as attributes:

    store.spaces      SpaceStore    resolve, list, erase
    store.records     RecordStore   apply, get, get_many, ids_in_use, find_by_external_id,
                                    lineage, list, count, statement_tokens, forget
    store.search      SearchIndex   keyword, vector, terms, record_vectors
    store.outbox      OutboxStore   claim, complete_embedding, retry, pending
    store.index_sync  IndexSyncStore enable, enabled, queue, claim, done, retry, pending
    store.sessions    SessionStore  add, append_turns, get, list
    store.traces      TraceStore    add, get, list
    store.keys        KeyStore      add, by_hash, list, revoke
    store.logins      LoginStore    create, get, drop, count, add_notice, take_notices
    store.limits      LimitStore    take, peek, prune, count
    store.imports     ImportJobStore  start, publish, beat, follow, abandon
    store.audit       AuditLog      events
    store.app_tables  AppTables     migrate, version, execute, execute_many, query

Every method names a space; a store never returns anything that belongs to another space — it
drops such a row, counts it in `counters.foreign_rows_dropped` and logs it (fail closed).

Errors (from `forethought.errors`): `NotFound` for unknown ids in the named space, `Conflict` for
compare-and-set failures and clashes with stored data, `InvalidInput` for a request no store
could honour, `StoreBusy` when a write lock cannot be had before the deadline, and
`BackendError` for anything else the backend reports. Nothing backend-specific escapes.

The values crossing the seam (`ChangeSet`, `NewRecord`, `RecordFilter`, `Job`, `SyncJob`, `ScoredId`,
`RecordVectors`, `Capabilities`, `AppMigration`) live in `forethought.store.types` and are imported from here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from forethought.store.contracts import (
    AppTables,
    AuditLog,
    ImportJobStore,
    IndexSyncStore,
    KeyStore,
    LimitStore,
    LoginStore,
    OutboxStore,
    RecordStore,
    SearchIndex,
    SessionStore,
    SpaceStore,
    TraceStore,
)
from forethought.store.types import (
    AppMigration,
    Capabilities,
    ChangeSet,
    Counters,
    Job,
    NewRecord,
    RecordFilter,
    RecordVectors,
    ScoredId,
    SyncJob,
    Vector,
)

__all__ = [
    "AppMigration",
    "AppTables",
    "AuditLog",
    "Capabilities",
    "ChangeSet",
    "Counters",
    "ImportJobStore",
    "IndexSyncStore",
    "Job",
    "KeyStore",
    "LimitStore",
    "LoginStore",
    "NewRecord",
    "OutboxStore",
    "RecordFilter",
    "RecordStore",
    "RecordVectors",
    "ScoredId",
    "SearchIndex",
    "SessionStore",
    "SpaceStore",
    "Store",
    "SyncJob",
    "TraceStore",
    "Vector",
]


class Store(ABC):
    """System of record + search indexes for every space in one database: the contracts below,
    sharing one connection, plus what concerns the database as a whole."""

    capabilities: Capabilities = Capabilities()
    spaces: SpaceStore
    records: RecordStore
    search: SearchIndex
    outbox: OutboxStore
    index_sync: IndexSyncStore
    sessions: SessionStore
    traces: TraceStore
    keys: KeyStore
    logins: LoginStore
    limits: LimitStore
    imports: ImportJobStore
    audit: AuditLog
    app_tables: AppTables

    def __init__(self) -> None:
        self.counters = Counters()

    @abstractmethod
    def close(self) -> None:
        """Release connections and caches. The store is unusable afterwards (BackendError)."""

    @abstractmethod
    def stats(self) -> dict[str, Any]:
        """What `doctor` shows: backend kind and version, schema version, counts (no content)."""

    def erasure_pending(self) -> bool:
        """Whether an erasure may still have left bytes on disk (a backend that keeps a log, such
        as SQLite's WAL, could not yet write it back because readers held it). Retried after
        later writes; `finish_erasure` retries now. A backend with nothing to finish says False."""
        return False

    def finish_erasure(self) -> bool:
        """Retry what an erasure left pending; True when nothing is pending any more."""
        return True

    @abstractmethod
    def check_embedder(self, name: str, dim: int) -> None:
        """Bind the store to one embedding model on first use.

        Raises BackendError when `dim` is not the dimension the store was opened for, and Conflict
        when the store already holds vectors of another model.
        """
