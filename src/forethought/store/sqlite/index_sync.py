"""The index-sync queue on SQLite: the shared SQL (`store/sql/index_sync.py`); one writer at a
time (`BEGIN IMMEDIATE`), so a claim needs no row lock."""

from __future__ import annotations

from forethought.store.sql.index_sync import SqlIndexSync
from forethought.store.sqlite.connection import Database

__all__ = ["SQLiteIndexSync"]


class SQLiteIndexSync(SqlIndexSync):
    _db: Database

    def __init__(self, db: Database) -> None:
        self._db = db
