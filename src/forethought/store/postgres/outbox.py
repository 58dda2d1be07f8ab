"""The outbox on PostgreSQL: embed jobs queued with their record, leased (several workers claim
disjoint jobs: `FOR UPDATE SKIP LOCKED`), retried, completed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from forethought.domain.times import format_time, utcnow
from forethought.errors import InvalidInput
from forethought.store.postgres.connection import Database
from forethought.store.postgres.driver import vector_literal
from forethought.store.sql.outbox import SqlOutboxRetries
from forethought.store.types import Job, Vector

__all__ = ["PostgresOutbox"]


class PostgresOutbox(SqlOutboxRetries):
    _db: Database

    def __init__(self, db: Database, *, dim: int) -> None:
        self._db = db
        self._dim = dim

    def claim(self, *, limit: int, lease_s: float = 60.0) -> list[Job]:
        now = utcnow()

        def claim(conn: Any) -> list[Job]:
            rows = conn.execute(
                "SELECT o.id, o.space_id, r.id, o.job, o.attempts FROM outbox o"
                " JOIN records r ON r.seq = o.record_seq WHERE o.next_at <= ?"
                " ORDER BY o.next_at LIMIT ? FOR UPDATE OF o SKIP LOCKED",
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
                "SELECT o.record_seq FROM outbox o JOIN records r ON r.seq = o.record_seq"
                " WHERE o.id = ? AND r.id = ? AND r.space_id = ? FOR UPDATE OF o",
                (job.id, job.record_id, job.space_id),
            ).fetchone()
            if row is None:
                return  # done already, or the record was erased meanwhile
            added = conn.execute(
                "INSERT INTO record_vectors (record_seq, space_id, embedding) VALUES (?, ?, ?::vector)"
                " ON CONFLICT DO NOTHING",
                (row[0], job.space_id, vector_literal(vector)),
            ).rowcount
            if added:
                conn.execute("UPDATE spaces SET vec_adds = vec_adds + 1 WHERE id = ?", (job.space_id,))
            conn.execute("DELETE FROM outbox WHERE id = ?", (job.id,))

        self._db.write(finish)
