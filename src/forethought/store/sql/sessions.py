"""The reads of SessionStore that both SQL backends run as they are: one session with its turns, a
space's sessions newest first, and how many it holds."""

from __future__ import annotations

import builtins
from typing import Any

from forethought.domain import Session
from forethought.errors import NotFound
from forethought.store.contracts import SessionStore
from forethought.store.rows import session_from_rows
from forethought.store.sql.database import SqlDatabase
from forethought.store.sql.paging import newest_first

__all__ = ["SqlSessionReads"]


class SqlSessionReads(SessionStore):
    """For a backend that sets `_db`."""

    _db: SqlDatabase

    def get(self, space_id: str, session_id: str) -> Session:
        def find(conn: Any) -> tuple[Any, builtins.list[Any]]:
            row = conn.execute(
                "SELECT id, space_id, title, source, created_at, metadata FROM sessions WHERE id = ?",
                (session_id,),
            ).fetchone()
            turns = (
                []
                if row is None
                else conn.execute(
                    "SELECT idx, role, speaker, text, occurred_at FROM turns WHERE session_id = ? ORDER BY idx",
                    (session_id,),
                ).fetchall()
            )
            return row, turns

        row, turns = self._db.read(find)
        if row is None or not self._db.own(space_id, row[1]):
            raise NotFound(f"no session {session_id!r} in this space")
        return session_from_rows(row, turns)

    def list(self, space_id: str, *, limit: int = 100, before_id: str | None = None) -> builtins.list[Session]:
        sql, args = newest_first("sessions", "id", space_id, limit, before_id)
        ids = [r[0] for r in self._db.fetch(sql, args)]
        return [self.get(space_id, i) for i in ids]

    def count(self, space_id: str) -> int:
        rows = self._db.fetch("SELECT COUNT(*) FROM sessions WHERE space_id = ?", (space_id,))
        return int(rows[0][0])
