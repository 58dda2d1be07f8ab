"""Import jobs (SQLite and PostgreSQL): a row per job, a row per progress event. `lock(conn, name)`
serialises the writers of one job, and the starters of one space (SQLite's write lock already
does; PostgreSQL takes advisory locks), so event numbers never clash and the cap holds."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from forethought.domain.times import format_time, stored_time
from forethought.store.contracts.imports import ImportEvent, ImportJobLimits, ImportJobStore, ImportsFull, ImportView
from forethought.store.sql.database import SqlDatabase

__all__ = ["SqlImportJobs"]


class SqlImportJobs(ImportJobStore):
    def __init__(self, db: SqlDatabase, lock: Callable[[Any, str], None]) -> None:
        self._db = db
        self._lock = lock

    def start(self, job_id: str, space_id: str, now: datetime, limits: ImportJobLimits) -> None:
        forgotten = format_time(now - timedelta(seconds=limits.keep_s))
        stale = format_time(now - timedelta(seconds=limits.stale_s))

        def write(conn: Any) -> None:
            self._lock(conn, f"imports:{space_id}")
            conn.execute("DELETE FROM import_jobs WHERE updated_at < ?", (forgotten,))
            held = int(conn.execute("SELECT COUNT(*) FROM import_jobs WHERE space_id = ?", (space_id,)).fetchone()[0])
            if held >= limits.per_space:
                ended = conn.execute(
                    "SELECT id FROM import_jobs WHERE space_id = ? AND (finished = 1 OR updated_at < ?)"
                    " ORDER BY created_at, id LIMIT ?",
                    (space_id, stale, held - limits.per_space + 1),
                ).fetchall()
                if len(ended) < held - limits.per_space + 1:
                    raise ImportsFull()
                conn.executemany("DELETE FROM import_jobs WHERE id = ?", [(row[0],) for row in ended])
            at = format_time(now)
            conn.execute(
                "INSERT INTO import_jobs (id, space_id, created_at, updated_at, finished) VALUES (?, ?, ?, ?, 0)",
                (job_id, space_id, at, at),
            )

        self._db.write(write)

    def publish(
        self,
        job_id: str,
        stage: str,
        percent: int,
        message: str,
        *,
        finished: bool,
        now: datetime,
        limits: ImportJobLimits,
    ) -> bool:
        def write(conn: Any) -> bool:
            self._lock(conn, f"import:{job_id}")
            row = conn.execute("SELECT finished FROM import_jobs WHERE id = ?", (job_id,)).fetchone()
            if row is None or int(row[0]):
                return False
            last = conn.execute("SELECT MAX(seq) FROM import_events WHERE job_id = ?", (job_id,)).fetchone()[0]
            seq = 0 if last is None else int(last) + 1
            conn.execute(
                "INSERT INTO import_events (job_id, seq, stage, percent, message, finished) VALUES (?, ?, ?, ?, ?, ?)",
                (job_id, seq, stage, int(percent), message, int(finished)),
            )
            conn.execute(
                "UPDATE import_jobs SET updated_at = ?, finished = ? WHERE id = ?",
                (format_time(now), int(finished), job_id),
            )
            if seq >= limits.events:  # the newest are what a page draws; the last is always kept
                conn.execute("DELETE FROM import_events WHERE job_id = ? AND seq <= ?", (job_id, seq - limits.events))
            return True

        return self._db.write(write)

    def beat(self, job_id: str, now: datetime) -> None:
        self._db.write(
            lambda c: c.execute(
                "UPDATE import_jobs SET updated_at = ? WHERE id = ? AND finished = 0", (format_time(now), job_id)
            )
        )

    def follow(self, job_id: str, space_id: str, after_seq: int, limit: int) -> ImportView | None:
        def read(conn: Any) -> ImportView | None:
            job = conn.execute(
                "SELECT space_id, finished, updated_at FROM import_jobs WHERE id = ? AND space_id = ?",
                (job_id, space_id),
            ).fetchone()
            if job is None or not self._db.own(space_id, str(job[0])):
                return None
            rows = conn.execute(
                "SELECT seq, stage, percent, message, finished FROM import_events WHERE job_id = ? AND seq > ?"
                " ORDER BY seq LIMIT ?",
                (job_id, int(after_seq), int(limit)),
            ).fetchall()
            events = [ImportEvent(int(r[0]), str(r[1]), int(r[2]), str(r[3]), bool(r[4])) for r in rows]
            return ImportView(bool(job[1]), stored_time(job[2]), events)

        result: ImportView | None = self._db.read(read)
        return result

    def abandon(self, job_id: str, space_id: str, stale_before: datetime, message: str, now: datetime) -> bool:
        def write(conn: Any) -> bool:
            self._lock(conn, f"import:{job_id}")
            row = conn.execute(
                "SELECT 1 FROM import_jobs WHERE id = ? AND space_id = ? AND finished = 0 AND updated_at < ?",
                (job_id, space_id, format_time(stale_before)),
            ).fetchone()
            if row is None:
                return False
            last = conn.execute("SELECT MAX(seq) FROM import_events WHERE job_id = ?", (job_id,)).fetchone()[0]
            conn.execute(
                "INSERT INTO import_events (job_id, seq, stage, percent, message, finished)"
                " VALUES (?, ?, 'failed', 100, ?, 1)",
                (job_id, 0 if last is None else int(last) + 1, message),
            )
            conn.execute("UPDATE import_jobs SET finished = 1, updated_at = ? WHERE id = ?", (format_time(now), job_id))
            return True

        return self._db.write(write)
