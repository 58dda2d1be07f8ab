"""Spaces on SQLite: one row per subject, its id an HMAC of the key under the store secret."""

from __future__ import annotations

import builtins
from typing import Any

from forethought.domain import Action, AuditEvent, Space, SpaceKey, new_id
from forethought.domain.ids import space_id_for
from forethought.domain.times import format_time, stored_time, utcnow
from forethought.errors import NotFound
from forethought.store.contracts import SpaceStore
from forethought.store.rows import SPACE_COLUMNS, space_from_row
from forethought.store.sql.audit import insert_events
from forethought.store.sql.index_sync import queue_sync
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.erasure import delete_rows, purge
from forethought.store.sqlite.vector_cache import VectorCache

__all__ = ["SQLiteSpaces"]


class SQLiteSpaces(SpaceStore):
    def __init__(self, db: Database, vectors: VectorCache, *, secret: bytes, secure_fts_delete: bool) -> None:
        self._db = db
        self._vectors = vectors
        self._secret = secret
        self._secure_fts_delete = secure_fts_delete

    def resolve(self, key: SpaceKey, *, create: bool = True) -> Space:
        space_id = space_id_for(self._secret, key.workspace, key.subject_type, key.subject_id)

        def find(conn: Any) -> Any:
            return conn.execute("SELECT created_at FROM spaces WHERE id = ?", (space_id,)).fetchone()

        row = self._db.read(find)
        if row is None:
            if not create:
                raise NotFound(f"no space for {key.subject_type} {key.subject_id!r}")
            now = format_time(utcnow())

            def insert(conn: Any) -> Any:
                conn.execute(
                    "INSERT OR IGNORE INTO spaces (id, workspace, subject_type, subject_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (space_id, key.workspace, key.subject_type, key.subject_id, now),
                )
                return find(conn)

            row = self._db.write(insert)
        return Space(id=space_id, key=key, created_at=stored_time(row[0]))

    def list(self, workspace: str | None = None) -> builtins.list[Space]:
        sql = f"SELECT {SPACE_COLUMNS} FROM spaces"
        params: tuple[Any, ...] = ()
        if workspace is not None:
            sql += " WHERE workspace = ?"
            params = (workspace,)
        return [space_from_row(r) for r in self._db.fetch(sql + " ORDER BY created_at, id", params)]

    def erase(self, space_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            rows = conn.execute("SELECT rowid, id FROM records WHERE space_id = ?", (space_id,)).fetchall()
            rowids = [r[0] for r in rows]
            delete_rows(conn, rowids)
            queue_sync(conn, space_id, [r[1] for r in rows])
            conn.execute("DELETE FROM turns_fts WHERE space = ?", (space_id,))
            conn.execute("DELETE FROM sessions WHERE space_id = ?", (space_id,))
            conn.execute("DELETE FROM audit_events WHERE space_id = ?", (space_id,))
            conn.execute("DELETE FROM spaces WHERE id = ?", (space_id,))
            event = AuditEvent(
                id=new_id(),
                space_id=space_id,
                action=Action.SPACE_ERASED,
                actor=actor,
                at=utcnow(),
                details={"records": len(rowids)},
            )
            insert_events(conn, [event])
            return len(rowids)

        removed = self._db.write(erase)
        self._vectors.drop(space_id)
        purge(self._db, secure_fts_delete=self._secure_fts_delete)
        return removed
