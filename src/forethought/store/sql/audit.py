"""The audit log (SQLite and PostgreSQL): the one place an audit event is inserted, and reading events back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from forethought.domain import AuditEvent
from forethought.store.contracts import AuditLog
from forethought.store.rows import AUDIT_COLUMNS, audit_from_row, audit_values
from forethought.store.sql.database import SqlDatabase

__all__ = ["SqlAuditLog", "insert_events"]

_INSERT = f"INSERT INTO audit_events ({AUDIT_COLUMNS}) VALUES ({', '.join('?' * len(AUDIT_COLUMNS.split(',')))})"


def insert_events(conn: Any, events: Sequence[AuditEvent]) -> None:
    """Write `events` inside the caller's transaction (every change writes its events with it)."""
    conn.executemany(_INSERT, [audit_values(e) for e in events])


class SqlAuditLog(AuditLog):
    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    def events(
        self, space_id: str, *, record_id: str | None = None, limit: int = 100, before_seq: int | None = None
    ) -> list[AuditEvent]:
        sql = f"SELECT {AUDIT_COLUMNS}, seq FROM audit_events WHERE space_id = ?"
        args: list[Any] = [space_id]
        if record_id is not None:
            sql += " AND record_id = ?"
            args.append(record_id)
        if before_seq is not None:
            sql += " AND seq < ?"
            args.append(before_seq)
        sql += " ORDER BY seq DESC LIMIT ?"
        args.append(limit)
        rows = self._db.fetch(sql, args)
        return [audit_from_row(r) for r in rows if self._db.own(space_id, r[1])]
