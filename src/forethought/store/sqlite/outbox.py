"""The outbox on SQLite: embed jobs queued with their record, leased, retried, completed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from forethought.domain.times import format_time, utcnow
from forethought.errors import InvalidInput
from forethought.store.sql.outbox import SqlOutboxRetries
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.vector_cache import encode_vector
from forethought.store.types import Job, Vector

__all__ = ["SQLiteOutbox"]


class SQLiteOutbox(SqlOutboxRetries):
    _db: Database

    def __init__(self, db: Database, *, dim: int) -> None:
        self._db = db
        self._dim = dim

    def claim(self, *, limit: int, lease_s: float = 60.0) -> list[Job]:
        now = utcnow()

        def claim(conn: Any) -> list[Job]:
            rows = conn.execute(
                "SELECT o.id, o.space_id, r.id, o.job, o.attempts FROM outbox o"
                " JOIN records r ON r.rowid = o.record_rowid WHERE o.next_at <= ? ORDER BY o.next_at LIMIT ?",
                (format_time(now), limit),
            ).fetchall()
            lease = format_time(now + timedelta(seconds=lease_s))
            conn.executemany("UPDATE outbox SET next_at = ? WHERE id = ?", [(lease, r[0]) for r in rows])
            return [Job(id=r[0], space_id=r[1], record_id=r[2], kind=r[3], attempts=r[4]) for r in rows]

        return self._db.write(claim)

    def complete_embedding(self, job: Job, vector: Vector) -> None:
        if vector.shape != (self._dim,):
            raise InvalidInput(f"vector of shape {vector.shape}, expected ({self._dim},)")

        def finish(conn: Any) -> None:
            row = conn.execute(
                "SELECT o.record_rowid FROM outbox o JOIN records r ON r.rowid = o.record_rowid"
                " WHERE o.id = ? AND r.id = ? AND r.space_id = ?",
                (job.id, job.record_id, job.space_id),
            ).fetchone()
            if row is None:
                return  # done already, or the record was erased meanwhile
            added = conn.execute(
                "INSERT OR IGNORE INTO vectors (record_rowid, space_id, vec) VALUES (?, ?, ?)",
                (row[0], job.space_id, encode_vector(vector)),
            ).rowcount
            if added:
                conn.execute("UPDATE spaces SET vec_adds = vec_adds + 1 WHERE id = ?", (job.space_id,))
            conn.execute("DELETE FROM outbox WHERE id = ?", (job.id,))

        self._db.write(finish)
