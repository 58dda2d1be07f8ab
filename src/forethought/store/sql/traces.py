"""Traces (SQLite and PostgreSQL): one JSON document per turn, listed newest first."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from forethought.domain.times import format_time
from forethought.errors import NotFound
from forethought.store.contracts import TraceStore
from forethought.store.sql.database import SqlDatabase
from forethought.store.sql.paging import newest_first

__all__ = ["SqlTraces"]


class SqlTraces(TraceStore):
    """`require_space(conn, space_id)` is the backend's check that a space exists before a write."""

    def __init__(self, db: SqlDatabase, require_space: Callable[[Any, str], None]) -> None:
        self._db = db
        self._require_space = require_space

    def add(
        self,
        space_id: str,
        trace_id: str,
        *,
        kind: str,
        session_id: str | None,
        created_at: datetime,
        data: dict[str, Any],
    ) -> None:
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)

        def write(conn: Any) -> None:
            self._require_space(conn, space_id)
            conn.execute(
                "INSERT INTO traces (id, space_id, session_id, kind, created_at, data) VALUES (?, ?, ?, ?, ?, ?)",
                (trace_id, space_id, session_id, kind, format_time(created_at), payload),
            )

        self._db.write(write)

    def get(self, space_id: str, trace_id: str, *, kind: str | None = None) -> dict[str, Any]:
        rows = self._db.fetch("SELECT space_id, data, kind FROM traces WHERE id = ?", (trace_id,))
        if not rows or not self._db.own(space_id, rows[0][0]) or kind not in (None, rows[0][2]):
            raise NotFound(f"no trace {trace_id!r} in this space")
        data: dict[str, Any] = json.loads(rows[0][1])
        return data

    def list(
        self, space_id: str, *, limit: int = 50, before_id: str | None = None, kind: str | None = None
    ) -> builtins.list[dict[str, Any]]:
        rows = self._db.fetch(*newest_first("traces", "space_id, data", space_id, limit, before_id, kind=kind))
        return [json.loads(r[1]) for r in rows if self._db.own(space_id, r[0])]
