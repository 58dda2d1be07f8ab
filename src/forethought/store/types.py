"""The values that cross the store seam: what callers hand a store and what it hands back."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt

from forethought.domain import AuditEvent, Evidence, Record, Status

__all__ = [
    "AppMigration",
    "Capabilities",
    "ChangeSet",
    "Counters",
    "Job",
    "NewRecord",
    "RecordFilter",
    "RecordVectors",
    "ScoredId",
    "SentenceVector",
    "SyncJob",
    "TurnHit",
    "Vector",
    "quote_digest",
]

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Capabilities:
    fts: bool = True
    vectors: bool = True
    # Deleting from the keyword index leaves no trace of the terms in the index itself.
    secure_fts_delete: bool = False
    # The database is a server that processes on other hosts may share: state that must hold
    # across processes (the rate limits' buckets) is kept in it even for one server process.
    shared_server: bool = False


@dataclass
class Counters:
    """What a store counts about itself (shown by `doctor` and asserted by the isolation tests)."""

    foreign_rows_dropped: int = 0
    lock_retries: int = 0


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
    # The embedding of the record's first evidence quote, when it is not the statement itself.
    evidence_vector: Vector | None = None


@dataclass(frozen=True)
class RecordVectors:
    """What a store keeps of one record's embeddings (`RecordStore.record_vectors`): its statement's
    (None while the outbox owes it) and its first evidence quote's, with the sha256 of the quote
    that vector was made from (both None when none was stored)."""

    statement: Vector | None
    evidence: Vector | None = None
    evidence_digest: str | None = None

    def evidence_of(self, quote: str) -> Vector | None:
        """The evidence vector if it was made from `quote`, else None."""
        return self.evidence if self.evidence_digest == quote_digest(quote) else None


@dataclass(frozen=True)
class SentenceVector:
    """One sentence of a stored turn with its embedding, written with the turn (`SessionStore.add`,
    `append_turns`) so a brief quoting past sessions reads it instead of embedding the sentence.
    `start` is the sentence's offset in the turn's text, `model` the embedder's name and `digest`
    the `quote_digest` of the text embedded: a reader uses the vector only while both still match.
    A sentence a brief may quote also carries the vector of the passage it would quote around it
    (`passage_digest`, `passage_vector`; both None otherwise)."""

    turn_index: int
    start: int
    model: str
    digest: str
    vector: Vector
    passage_digest: str | None = None
    passage_vector: Vector | None = None


def quote_digest(quote: str) -> str:
    """The sha256 (hex) an evidence vector is stored with: of the quote it was made from."""
    return hashlib.sha256(quote.encode("utf-8")).hexdigest()


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
class SyncJob:
    """A record whose state a remote index must be brought to (see `IndexSyncStore`)."""

    id: int
    space_id: str
    record_id: str
    generation: int  # grows with every change queued for the record
    attempts: int


@dataclass(frozen=True)
class ScoredId:
    record_id: str
    score: float


@dataclass(frozen=True)
class TurnHit:
    """A captured turn that matched a keyword search over sessions (higher `score` is better)."""

    session_id: str
    turn_index: int
    score: float


@dataclass(frozen=True)
class AppMigration:
    """One step of an app's schema: applied once, in `version` order (1, 2, ...), never edited.

    `sql` is one or more statements separated by `;` (no `;` inside a string literal), in the SQL
    that SQLite and PostgreSQL share, touching only tables named `app_<app>_*`.
    """

    version: int
    name: str
    sql: str
