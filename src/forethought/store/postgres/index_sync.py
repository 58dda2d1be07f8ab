"""The index-sync queue on PostgreSQL: the shared SQL (`store/sql/index_sync.py`); several
workers claim disjoint jobs (`FOR UPDATE SKIP LOCKED`)."""

from __future__ import annotations

from forethought.store.postgres.connection import Database
from forethought.store.sql.index_sync import SqlIndexSync

__all__ = ["PostgresIndexSync"]


class PostgresIndexSync(SqlIndexSync):
    _db: Database
    _claim_lock = " FOR UPDATE SKIP LOCKED"

    def __init__(self, db: Database) -> None:
        self._db = db
