"""API keys (SQLite and PostgreSQL): stored by hash, never the key itself."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from forethought.domain.keys import ApiKey
from forethought.domain.times import format_time, stored_time
from forethought.errors import NotFound
from forethought.store.contracts import KeyStore
from forethought.store.sql.database import SqlDatabase

__all__ = ["SqlKeys"]

_COLUMNS = "id, workspace, name, created_at, revoked_at, role"


class SqlKeys(KeyStore):
    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    def add(self, key: ApiKey, key_hash: str) -> None:
        self._db.write(
            lambda c: c.execute(
                "INSERT INTO api_keys (id, workspace, name, hash, created_at, role) VALUES (?, ?, ?, ?, ?, ?)",
                (key.id, key.workspace, key.name, key_hash, format_time(key.created_at), key.role),
            )
        )

    def by_hash(self, key_hash: str) -> ApiKey | None:
        rows = self._db.fetch(f"SELECT {_COLUMNS} FROM api_keys WHERE hash = ?", (key_hash,))
        return _api_key(rows[0]) if rows else None

    def list(self, workspace: str | None = None) -> builtins.list[ApiKey]:
        sql = f"SELECT {_COLUMNS} FROM api_keys"
        rows = (
            self._db.fetch(sql + " ORDER BY created_at, id", ())
            if workspace is None
            else self._db.fetch(sql + " WHERE workspace = ? ORDER BY created_at, id", (workspace,))
        )
        return [_api_key(r) for r in rows]

    def revoke(self, key_id: str, at: datetime) -> ApiKey:
        def write(conn: Any) -> Any:
            conn.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?", (format_time(at), key_id)
            )
            return conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()

        row = self._db.write(write)
        if row is None:
            raise NotFound(f"no API key {key_id!r}")
        return _api_key(row)


def _api_key(row: Sequence[Any]) -> ApiKey:
    return ApiKey(
        id=row[0],
        workspace=row[1],
        name=row[2],
        created_at=stored_time(row[3]),
        revoked_at=None if row[4] is None else stored_time(row[4]),
        role=row[5],
    )
