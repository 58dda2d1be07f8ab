"""Records on SQLite: change sets written in one transaction, reads guarded by space, erasure."""

from __future__ import annotations

from typing import Any

from forethought.domain.times import format_time, utcnow
from forethought.errors import InvalidInput
from forethought.store.rows import RECORD_COLUMNS, keyword_body, record_values
from forethought.store.sql.audit import insert_events
from forethought.store.sql.erasure import forget_lineage
from forethought.store.sql.index_sync import queue_sync
from forethought.store.sql.records import (
    SqlRecordReads,
    changed_ids,
    check_change_set,
    write_transitions_and_evidence,
)
from forethought.store.sql.vectors import evidence_rows
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.erasure import delete_rows, purge, require_space
from forethought.store.sqlite.sql import marks
from forethought.store.sqlite.vector_cache import VectorCache, encode_vector
from forethought.store.types import ChangeSet, NewRecord

__all__ = ["SQLiteRecords"]

_INSERT = f"INSERT INTO records ({RECORD_COLUMNS}) VALUES ({marks(len(RECORD_COLUMNS.split(',')))})"


class SQLiteRecords(SqlRecordReads):
    _db: Database

    def __init__(self, db: Database, vectors: VectorCache, *, dim: int, secure_fts_delete: bool) -> None:
        self._db = db
        self._vectors = vectors
        self._dim = dim
        self._secure_fts_delete = secure_fts_delete

    # -- writing ---------------------------------------------------------------------------
    def apply(self, changes: ChangeSet) -> None:
        check_change_set(changes)

        def write(conn: Any) -> None:
            require_space(conn, changes.space_id)
            vectors_added = sum(self._insert(conn, new) for new in changes.inserts)
            write_transitions_and_evidence(conn, changes)
            queue_sync(conn, changes.space_id, changed_ids(changes))
            insert_events(conn, changes.events)
            if vectors_added:
                conn.execute(
                    "UPDATE spaces SET vec_adds = vec_adds + ? WHERE id = ?",
                    (vectors_added, changes.space_id),
                )

        self._db.write(write)

    def _insert(self, conn: Any, new: NewRecord) -> int:
        """Insert one record with its tags, terms, keyword entry and vector (or outbox job);
        returns the vectors added (0 or 1)."""
        record = new.record
        rowid = conn.execute(_INSERT, record_values(record)).lastrowid
        conn.executemany(
            "INSERT INTO record_tags (record_rowid, space_id, tag) VALUES (?, ?, ?)",
            [(rowid, record.space_id, tag) for tag in record.tags],
        )
        conn.executemany(
            "INSERT OR IGNORE INTO record_terms (record_rowid, space_id, term) VALUES (?, ?, ?)",
            [(rowid, record.space_id, term) for term in new.terms],
        )
        conn.execute(
            "INSERT INTO records_fts (rowid, body, space) VALUES (?, ?, ?)",
            (rowid, keyword_body(record, new.search_text), record.space_id),
        )
        if new.embed_later:
            conn.execute(
                "INSERT OR IGNORE INTO outbox (space_id, record_rowid, job, next_at) VALUES (?, ?, 'embed', ?)",
                (record.space_id, rowid, format_time(utcnow())),
            )
            return 0
        if new.vector is None:
            return 0
        for vector in (new.vector, new.evidence_vector):
            if vector is not None and vector.shape != (self._dim,):
                raise InvalidInput(f"vector of shape {vector.shape}, expected ({self._dim},)")
        conn.executemany(
            "INSERT INTO evidence_vectors (record_rowid, space_id, digest, vec) VALUES (?, ?, ?, ?)",
            evidence_rows([new], lambda _: int(rowid)),
        )
        conn.execute(
            "INSERT INTO vectors (record_rowid, space_id, vec) VALUES (?, ?, ?)",
            (rowid, record.space_id, encode_vector(new.vector)),
        )
        return 1

    # -- erasure ---------------------------------------------------------------------------
    def forget(self, space_id: str, lineage_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            return forget_lineage(
                conn,
                space_id,
                lineage_id,
                actor=actor,
                key="rowid",
                lock="",
                contains="instr(data, ?) > 0",
                delete=delete_rows,
            )

        removed = self._db.write(erase)
        self._vectors.delete_snapshot(space_id)  # it may hold the erased vectors
        purge(self._db, secure_fts_delete=self._secure_fts_delete)
        return removed
