"""The outbox on SQLite: the shared SQL (`store/sql/outbox.py`) with vectors as blobs."""

from __future__ import annotations

from typing import Any

from forethought.store.sql.outbox import SqlOutbox
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.vector_cache import encode_vector
from forethought.store.types import Vector

__all__ = ["SQLiteOutbox"]


class SQLiteOutbox(SqlOutbox):
    _db: Database

    def _store_vector(self, conn: Any, row_key: int, space_id: str, vector: Vector) -> int:
        return int(
            conn.execute(
                "INSERT OR IGNORE INTO vectors (record_rowid, space_id, vec) VALUES (?, ?, ?)",
                (row_key, space_id, encode_vector(vector)),
            ).rowcount
        )
