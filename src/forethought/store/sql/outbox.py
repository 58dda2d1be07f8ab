"""The outbox on both SQL backends: embed jobs queued with their record, leased, retried,
completed. A backend names its row keys, how a claim skips rows another worker holds, and how a
vector is stored (`_store_vector`)."""

from __future__ import annotations

from abc import abstractmethod
from datetime import timedelta
from typing import Any

from forethought.domain.times import format_time, utcnow
from forethought.errors import InvalidInput
from forethought.store.contracts import OutboxStore
from forethought.store.sql.database import SqlDatabase
from forethought.store.sql.vectors import pack
from forethought.store.types import Job, Vector

__all__ = ["SqlOutbox"]


class SqlOutbox(OutboxStore):
    """For a backend that sets `_key` / `_job_key` (records' row key and the outbox's column for
    it), `_claim_lock` (what ends a claim's read) and `_store_vector`."""

    _key = "rowid"
    _job_key = "record_rowid"
    _claim_lock = ""

    def __init__(self, db: SqlDatabase, *, dim: int) -> None:
        self._db = db
        self._dim = dim

    @abstractmethod
    def _store_vector(self, conn: Any, row_key: int, space_id: str, vector: Vector) -> int:
        """Insert a record's vector unless it has one; returns the rows added (0 or 1)."""

    def claim(self, *, limit: int, lease_s: float = 60.0) -> list[Job]:
        now = utcnow()

        def claim(conn: Any) -> list[Job]:
            rows = conn.execute(
                "SELECT o.id, o.space_id, r.id, o.job, o.attempts FROM outbox o"
                f" JOIN records r ON r.{self._key} = o.{self._job_key} WHERE o.next_at <= ?"
                f" ORDER BY o.next_at LIMIT ?{self._claim_lock}",
                (format_time(now), limit),
            ).fetchall()
            lease = format_time(now + timedelta(seconds=lease_s))
            conn.executemany("UPDATE outbox SET next_at = ? WHERE id = ?", [(lease, r[0]) for r in rows])
            return [Job(id=r[0], space_id=r[1], record_id=r[2], kind=r[3], attempts=r[4]) for r in rows]

        return self._db.write(claim)

    def complete_embedding(self, job: Job, vector: Vector, evidence: tuple[str, Vector] | None = None) -> None:
        for v in (vector,) if evidence is None else (vector, evidence[1]):
            if v.shape != (self._dim,):
                raise InvalidInput(f"vector of shape {v.shape}, expected ({self._dim},)")

        def finish(conn: Any) -> None:
            row = conn.execute(
                f"SELECT o.{self._job_key} FROM outbox o JOIN records r ON r.{self._key} = o.{self._job_key}"
                " WHERE o.id = ? AND r.id = ? AND r.space_id = ?",
                (job.id, job.record_id, job.space_id),
            ).fetchone()
            if row is None:
                return  # done already, or the record was erased meanwhile
            if self._store_vector(conn, row[0], job.space_id, vector):
                conn.execute("UPDATE spaces SET vec_adds = vec_adds + 1 WHERE id = ?", (job.space_id,))
            if evidence is not None:
                conn.execute(
                    f"INSERT INTO evidence_vectors ({self._job_key}, space_id, digest, vec) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (row[0], job.space_id, evidence[0], pack(evidence[1])),
                )
            conn.execute("DELETE FROM outbox WHERE id = ?", (job.id,))

        self._db.write(finish)

    def retry(self, job: Job, error: str, *, delay_s: float) -> None:
        due = format_time(utcnow() + timedelta(seconds=delay_s))
        self._db.write(
            lambda c: c.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE id = ?",
                (due, error[:500], job.id),
            )
        )

    def pending(self, space_id: str | None = None) -> int:
        if space_id is None:
            rows = self._db.fetch("SELECT COUNT(*) FROM outbox", ())
        else:
            rows = self._db.fetch("SELECT COUNT(*) FROM outbox WHERE space_id = ?", (space_id,))
        return int(rows[0][0])
