"""The outbox on PostgreSQL: the shared SQL (`store/sql/outbox.py`), vectors as pgvector values;
several workers claim disjoint jobs (`FOR UPDATE SKIP LOCKED`)."""

from __future__ import annotations

from typing import Any

from forethought.store.postgres.connection import Database
from forethought.store.postgres.driver import vector_literal
from forethought.store.sql.outbox import SqlOutbox
from forethought.store.types import Vector

__all__ = ["PostgresOutbox"]


class PostgresOutbox(SqlOutbox):
    _db: Database
    _key = "seq"
    _job_key = "record_seq"
    _claim_lock = " FOR UPDATE OF o SKIP LOCKED"

    def _store_vector(self, conn: Any, row_key: int, space_id: str, vector: Vector) -> int:
        return int(
            conn.execute(
                "INSERT INTO record_vectors (record_seq, space_id, embedding) VALUES (?, ?, ?::vector)"
                " ON CONFLICT DO NOTHING",
                (row_key, space_id, vector_literal(vector)),
            ).rowcount
        )
