"""The Store seam: the system of record and its search indexes.

A store is several narrow contracts (spaces, records, search, sessions, audit) that one backend
implements together, because they must share transactions. Every method names a space; a store
never returns anything that belongs to another space — it drops such a row, counts it in
`foreign_rows_dropped` and logs it (fail closed).

Errors: `NotFound` for unknown ids in the named space, `Conflict` for compare-and-set failures and
external-id clashes, `StoreBusy` when a write lock cannot be had before the deadline, and
`BackendError` for anything else the backend reports. Nothing backend-specific escapes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from forethought.domain import AuditEvent, Evidence, Record, Session, Space, SpaceKey, Status, Turn
from forethought.domain.keys import ApiKey

__all__ = [
    "Capabilities",
    "ChangeSet",
    "Job",
    "NewRecord",
    "RecordFilter",
    "ScoredId",
    "Store",
]

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Capabilities:
    fts: bool = True
    vectors: bool = True
    # Deleting from the keyword index leaves no trace of the terms in the index itself.
    secure_fts_delete: bool = False


@dataclass(frozen=True)
class NewRecord:
    """A record to insert, with its embedding (None when the store has no vectors) and terms."""

    record: Record
    vector: Vector | None
    # Normalised identifier/entity terms for exact-overlap search.
    terms: tuple[str, ...] = ()
    # Extra text indexed for keyword search beside the statement (e.g. split identifiers).
    search_text: str = ""
    # The vector could not be made now (embedder down): queue an outbox job to add it later.
    embed_later: bool = False


@dataclass(frozen=True)
class ChangeSet:
    """Everything one operation writes, applied atomically or not at all.

    `transitions` are (before, after) pairs: the store applies each only if the stored status is
    still `before.status` (compare-and-set), else the whole change set fails with Conflict.
    """

    space_id: str
    inserts: Sequence[NewRecord] = ()
    transitions: Sequence[tuple[Record, Record]] = ()
    events: Sequence[AuditEvent] = ()
    # (record id, quotes) — evidence appended to an existing record (a duplicate was found).
    # Evidence is the one part of a record that may grow; statement, kind and attributes never change.
    evidence: Sequence[tuple[str, Sequence[Evidence]]] = ()


@dataclass(frozen=True)
class RecordFilter:
    """Which records a search or listing may return. Empty tuples mean no restriction."""

    statuses: tuple[Status, ...] = (Status.ACTIVE,)
    kinds: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()  # a record must carry every one of these
    occurred_after: datetime | None = None
    occurred_before: datetime | None = None
    # Valid-time travel: occurred_at <= as_of < valid_to (statuses must include superseded).
    as_of: datetime | None = None


@dataclass(frozen=True)
class Job:
    """An outbox job: work owed to a committed record, retried until it succeeds."""

    id: int
    space_id: str
    record_id: str
    kind: str  # "embed"
    attempts: int


@dataclass(frozen=True)
class ScoredId:
    record_id: str
    score: float


@dataclass
class _Counters:
    foreign_rows_dropped: int = 0
    lock_retries: int = 0


class Store(ABC):
    """System of record + search indexes for every space in one database."""

    capabilities: Capabilities = Capabilities()

    def __init__(self) -> None:
        self.counters = _Counters()

    # -- lifecycle -------------------------------------------------------------------------
    @abstractmethod
    def close(self) -> None:
        """Release connections and caches. The store is unusable afterwards."""

    @abstractmethod
    def stats(self) -> dict[str, Any]:
        """What `doctor` shows: backend kind and version, schema version, counts (no content)."""

    @abstractmethod
    def check_embedder(self, name: str, dim: int) -> None:
        """Bind the store to one embedding model, or raise Conflict if it holds another's vectors."""

    # -- spaces ----------------------------------------------------------------------------
    @abstractmethod
    def resolve_space(self, key: SpaceKey, *, create: bool = True) -> Space:
        """The space of `key`, created on first use (its id is an HMAC under the store secret).

        Raises NotFound when it does not exist and `create` is False.
        """

    @abstractmethod
    def list_spaces(self, workspace: str | None = None) -> list[Space]: ...

    @abstractmethod
    def erase_space(self, space_id: str, *, actor: str) -> int:
        """Remove every row of the space from every table and index; returns records removed."""

    # -- records ---------------------------------------------------------------------------
    @abstractmethod
    def apply(self, changes: ChangeSet) -> None:
        """Write a change set atomically (see ChangeSet). Raises Conflict on a lost race."""

    @abstractmethod
    def get(self, space_id: str, record_id: str) -> Record:
        """One record by id or handle. Raises NotFound (also for a record of another space)."""

    @abstractmethod
    def get_many(self, space_id: str, record_ids: Sequence[str]) -> list[Record]:
        """Records by id, in the order asked, silently skipping ids not in this space."""

    @abstractmethod
    def ids_in_use(self, record_ids: Sequence[str], *, space_id: str | None = None) -> set[str]:
        """Which of these ids exist — in `space_id`, or in any space when it is None (ids only,
        never content: import uses it to decide which ids must be replaced)."""

    @abstractmethod
    def find_by_external_id(self, space_id: str, external_id: str) -> Record | None: ...

    @abstractmethod
    def lineage(self, space_id: str, lineage_id: str) -> list[Record]:
        """Every version of one fact, oldest first."""

    @abstractmethod
    def list_records(
        self,
        space_id: str,
        flt: RecordFilter,
        *,
        limit: int = 100,
        after_id: str | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records matching `flt`, by id (creation order), `limit` at a time after `after_id`;
        with `newest_first`, the most recently recorded first (`after_id` then continues older)."""

    @abstractmethod
    def count_records(self, space_id: str, flt: RecordFilter) -> int: ...

    @abstractmethod
    def statement_tokens(self, space_id: str, flt: RecordFilter) -> int:
        """The summed token estimate of matching statements (`recall.packing.estimate_tokens`'s rule:
        the larger of characters / 4 and words, at least 1), computed without loading the records."""

    @abstractmethod
    def forget(self, space_id: str, lineage_id: str, *, actor: str) -> int:
        """Erase every version of a lineage from every table and index; returns versions removed.

        Links from other records (supersedes / superseded_by) to the erased ids are cut, and the
        lineage's audit rows are replaced by one `forgotten` event carrying no text.
        """

    # -- outbox ----------------------------------------------------------------------------
    @abstractmethod
    def claim_jobs(self, *, limit: int, lease_s: float = 60.0) -> list[Job]:
        """Due jobs, leased for `lease_s` so other processes skip them meanwhile."""

    @abstractmethod
    def complete_embedding(self, job: Job, vector: Vector) -> None:
        """Store the vector owed by an embed job and delete the job, atomically. Idempotent: a job
        already done, or whose record was erased meanwhile, is a no-op."""

    @abstractmethod
    def retry_job(self, job: Job, error: str, *, delay_s: float) -> None:
        """Record a failed attempt; the job becomes due again after `delay_s`."""

    @abstractmethod
    def pending_jobs(self, space_id: str | None = None) -> int: ...

    # -- search ----------------------------------------------------------------------------
    @abstractmethod
    def keyword_search(self, space_id: str, words: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        """BM25 over statement and search text for records containing any of `words` (plain
        words; the store owns its query syntax, so nothing a user types is read as syntax).

        Higher score is better. A backend may bound its work on very common words (see the
        SQLite store); when it does, records containing every word come first.
        """

    @abstractmethod
    def vector_search(self, space_id: str, vector: Vector, flt: RecordFilter, limit: int) -> list[ScoredId]:
        """Nearest records by cosine similarity among those matching `flt`."""

    @abstractmethod
    def term_search(self, space_id: str, terms: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        """Records sharing the most exact terms with `terms` (score = number shared)."""

    # -- sessions --------------------------------------------------------------------------
    @abstractmethod
    def add_session(self, session: Session, events: Sequence[AuditEvent] = ()) -> None: ...

    @abstractmethod
    def append_turns(self, space_id: str, session_id: str, turns: Sequence[Turn]) -> None:
        """Add turns at the end of a session (their `index` must continue the session's).

        Raises NotFound for a session of another space, Conflict when an index is taken."""

    @abstractmethod
    def get_session(self, space_id: str, session_id: str) -> Session: ...

    @abstractmethod
    def list_sessions(self, space_id: str, *, limit: int = 100, before_id: str | None = None) -> list[Session]:
        """Newest first; with `before_id`, only sessions older than that one (a keyset cursor)."""

    # -- traces ----------------------------------------------------------------------------
    @abstractmethod
    def add_trace(
        self,
        space_id: str,
        trace_id: str,
        *,
        kind: str,
        session_id: str | None,
        created_at: datetime,
        data: dict[str, Any],
    ) -> None: ...

    @abstractmethod
    def get_trace(self, space_id: str, trace_id: str) -> dict[str, Any]:
        """The stored trace data; NotFound for an unknown id or one of another space."""

    @abstractmethod
    def list_traces(self, space_id: str, *, limit: int = 50, before_id: str | None = None) -> list[dict[str, Any]]:
        """Newest first; with `before_id`, only traces older than that one (a keyset cursor)."""

    # -- api keys --------------------------------------------------------------------------
    @abstractmethod
    def add_api_key(self, key: ApiKey, key_hash: str) -> None: ...

    @abstractmethod
    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash, revoked or not (callers check `active`)."""

    @abstractmethod
    def list_api_keys(self, workspace: str | None = None) -> list[ApiKey]: ...

    @abstractmethod
    def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        """Mark a key revoked (idempotent); NotFound for an unknown id."""

    # -- audit -----------------------------------------------------------------------------
    @abstractmethod
    def audit_events(
        self, space_id: str, *, record_id: str | None = None, limit: int = 100, before_seq: int | None = None
    ) -> list[AuditEvent]:
        """Newest first."""
