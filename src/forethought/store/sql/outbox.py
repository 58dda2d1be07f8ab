"""The parts of OutboxStore both SQL backends run as they are: a failed job's retry, and counting."""

from __future__ import annotations

from datetime import timedelta

from forethought.domain.times import format_time, utcnow
from forethought.store.contracts import OutboxStore
from forethought.store.sql.database import SqlDatabase
from forethought.store.types import Job

__all__ = ["SqlOutboxRetries"]


class SqlOutboxRetries(OutboxStore):
    """For a backend that sets `_db`."""

    _db: SqlDatabase

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
