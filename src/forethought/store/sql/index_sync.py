"""The index-sync queue on both SQL backends (`IndexSyncStore`): ids queued inside the writing
transaction, claimed under a lease, done by generation. A backend names only how a claim skips
rows another worker holds (`_claim_lock`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from forethought.domain.times import format_time, utcnow
from forethought.store.contracts import IndexSyncStore
from forethought.store.sql.database import SqlDatabase
from forethought.store.types import SyncJob

__all__ = ["SqlIndexSync", "queue_sync"]

ENABLED_KEY = "index_sync"

# A newer change of a queued record is one more generation of the same row. It waits for a lease
# (or a backoff) already running, so one worker at a time brings a record's document up to date.
_UPSERT = (
    " ON CONFLICT (record_id) DO UPDATE SET generation = index_sync.generation + 1, attempts = 0,"
    " last_error = NULL, space_id = excluded.space_id,"
    " next_at = CASE WHEN index_sync.next_at > excluded.next_at THEN index_sync.next_at ELSE excluded.next_at END"
)
_QUEUE_IF_ENABLED = (
    "INSERT INTO index_sync (space_id, record_id, next_at) SELECT ?, ?, ?"
    f" WHERE EXISTS (SELECT 1 FROM meta WHERE key = '{ENABLED_KEY}')" + _UPSERT
)
_QUEUE = "INSERT INTO index_sync (space_id, record_id, next_at) VALUES (?, ?, ?)" + _UPSERT


def queue_sync(conn: Any, space_id: str, record_ids: Sequence[str]) -> None:
    """Inside the caller's write transaction: queue `record_ids` when index sync is enabled (one
    statement each, no extra read when it is not)."""
    if record_ids:
        now = format_time(utcnow())
        conn.executemany(_QUEUE_IF_ENABLED, [(space_id, rid, now) for rid in dict.fromkeys(record_ids)])


class SqlIndexSync(IndexSyncStore):
    """For a backend that sets `_db` and `_claim_lock` (what ends a claim's read)."""

    _db: SqlDatabase
    _claim_lock = ""

    def enable(self) -> None:
        self._db.write(
            lambda c: c.execute("INSERT INTO meta (key, value) VALUES (?, 'on') ON CONFLICT DO NOTHING", (ENABLED_KEY,))
        )

    def enabled(self) -> bool:
        return bool(self._db.fetch("SELECT 1 FROM meta WHERE key = ?", (ENABLED_KEY,)))

    def queue(self, space_id: str, record_ids: Sequence[str]) -> None:
        if not record_ids:
            return
        now = format_time(utcnow())
        rows = [(space_id, rid, now) for rid in dict.fromkeys(record_ids)]
        self._db.write(lambda c: c.executemany(_QUEUE, rows))

    def claim(self, *, limit: int, lease_s: float = 60.0) -> list[SyncJob]:
        now = utcnow()

        def claim(conn: Any) -> list[SyncJob]:
            rows = conn.execute(
                "SELECT id, space_id, record_id, generation, attempts FROM index_sync WHERE next_at <= ?"
                f" ORDER BY next_at, id LIMIT ?{self._claim_lock}",
                (format_time(now), limit),
            ).fetchall()
            lease = format_time(now + timedelta(seconds=lease_s))
            conn.executemany("UPDATE index_sync SET next_at = ? WHERE id = ?", [(lease, r[0]) for r in rows])
            return [SyncJob(id=r[0], space_id=r[1], record_id=r[2], generation=r[3], attempts=r[4]) for r in rows]

        return self._db.write(claim)

    def done(self, job: SyncJob) -> bool:
        def finish(conn: Any) -> bool:
            gone = conn.execute(
                "DELETE FROM index_sync WHERE id = ? AND generation = ?", (job.id, job.generation)
            ).rowcount
            if gone:
                return True
            conn.execute("UPDATE index_sync SET next_at = ? WHERE id = ?", (format_time(utcnow()), job.id))
            return False

        return bool(self._db.write(finish))

    def retry(self, job: SyncJob, error: str, *, delay_s: float) -> None:
        due = format_time(utcnow() + timedelta(seconds=delay_s))
        self._db.write(
            lambda c: c.execute(
                "UPDATE index_sync SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE id = ?",
                (due, error[:500], job.id),
            )
        )

    def pending(self, space_id: str | None = None) -> int:
        if space_id is None:
            rows = self._db.fetch("SELECT COUNT(*) FROM index_sync", ())
        else:
            rows = self._db.fetch("SELECT COUNT(*) FROM index_sync WHERE space_id = ?", (space_id,))
        return int(rows[0][0])
