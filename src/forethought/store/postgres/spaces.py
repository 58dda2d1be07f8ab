"""Spaces on PostgreSQL: one row per subject, its id an HMAC of the key under the store secret."""

from __future__ import annotations

import builtins
from typing import Any

from forethought.domain import Action, AuditEvent, Space, SpaceKey, new_id
from forethought.domain.ids import space_id_for
from forethought.domain.times import format_time, stored_time, utcnow
from forethought.errors import NotFound
from forethought.store.contracts import SpaceStore
from forethought.store.postgres.connection import Database
from forethought.store.rows import SPACE_COLUMNS, space_from_row
from forethought.store.sql.audit import insert_events
from forethought.store.sql.index_sync import queue_sync

__all__ = ["PostgresSpaces"]


class PostgresSpaces(SpaceStore):
    def __init__(self, db: Database, *, secret: bytes) -> None:
        self._db = db
        self._secret = secret

    def resolve(self, key: SpaceKey, *, create: bool = True) -> Space:
        space_id = space_id_for(self._secret, key.workspace, key.subject_type, key.subject_id)
        rows = self._db.fetch("SELECT created_at FROM spaces WHERE id = ?", (space_id,))
        if not rows:
            if not create:
                raise NotFound(f"no space for {key.subject_type} {key.subject_id!r}")
            now = format_time(utcnow())

            def insert(conn: Any) -> Any:
                conn.execute(
                    "INSERT INTO spaces (id, workspace, subject_type, subject_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (space_id, key.workspace, key.subject_type, key.subject_id, now),
                )
                return conn.execute("SELECT created_at FROM spaces WHERE id = ?", (space_id,)).fetchall()

            rows = self._db.write(insert)
        return Space(id=space_id, key=key, created_at=stored_time(rows[0][0]))

    def list(self, workspace: str | None = None) -> builtins.list[Space]:
        sql = f"SELECT {SPACE_COLUMNS} FROM spaces"
        params: tuple[Any, ...] = ()
        if workspace is not None:
            sql += " WHERE workspace = ?"
            params = (workspace,)
        return [space_from_row(r) for r in self._db.fetch(sql + " ORDER BY created_at, id", params)]

    def erase(self, space_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            # The row lock makes writes to this space that started earlier finish first, and
            # later ones find the space gone (`require_space`).
            conn.execute("SELECT 1 FROM spaces WHERE id = ? FOR UPDATE", (space_id,))
            ids = [r[0] for r in conn.execute("SELECT id FROM records WHERE space_id = ?", (space_id,)).fetchall()]
            records = len(ids)
            conn.execute("DELETE FROM records WHERE space_id = ?", (space_id,))
            queue_sync(conn, space_id, ids)
            conn.execute("DELETE FROM sessions WHERE space_id = ?", (space_id,))  # turns by cascade
            conn.execute("DELETE FROM audit_events WHERE space_id = ?", (space_id,))
            conn.execute("DELETE FROM spaces WHERE id = ?", (space_id,))  # traces and jobs by cascade
            event = AuditEvent(
                id=new_id(),
                space_id=space_id,
                action=Action.SPACE_ERASED,
                actor=actor,
                at=utcnow(),
                details={"records": int(records)},
            )
            insert_events(conn, [event])
            return int(records)

        removed: int = self._db.write(erase)
        return removed
