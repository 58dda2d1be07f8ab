"""A record's stored embeddings, read back by id: what the SQL backends share.

The statement's vector is the one the vector search indexes (`vectors` on SQLite, `record_vectors`
on PostgreSQL); the first evidence quote's lives in `evidence_vectors`, written with the record
when that quote is not the statement itself, with the sha256 of the quote it was made from (so a
reader can tell it still belongs to the record's first quote). Both are kept as float16, the
precision the SQLite vector index already stores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from forethought.store.sql.database import SqlDatabase
from forethought.store.sql.filters import marks
from forethought.store.types import NewRecord, RecordVectors, Vector, quote_digest

__all__ = ["evidence_rows", "pack", "read_record_vectors", "unpack"]

_STORED = np.dtype("<f2")
_CHUNK = 500  # ids bound in one statement


def pack(vector: Vector) -> bytes:
    return np.asarray(vector, dtype=_STORED).tobytes()


def unpack(blob: bytes) -> Vector:
    return np.frombuffer(bytes(blob), dtype=_STORED).astype(np.float32)


def evidence_rows(news: Sequence[NewRecord], key_of: Callable[[NewRecord], int]) -> list[tuple[int, str, str, bytes]]:
    """(row key, space id, digest, packed vector) for each new record carrying an evidence vector."""
    return [
        (key_of(n), n.record.space_id, quote_digest(n.record.evidence[0].quote), pack(n.evidence_vector))
        for n in news
        if n.evidence_vector is not None and n.record.evidence
    ]


def read_record_vectors(
    db: SqlDatabase, space_id: str, record_ids: Sequence[str], *, key: str, statement_table: str,
    statement_column: str, decode: Callable[[Any], Vector],
) -> dict[str, RecordVectors]:  # fmt: skip
    """Stored vectors of `record_ids` in the space. `key` is the records' row key column (`rowid`,
    `seq`; the vector tables link to it by `record_<key>`); `statement_table` holds the statement
    vectors in `statement_column` (an SQL expression over its alias `s`), read by `decode`."""
    link = f"record_{key}"
    wanted = list(dict.fromkeys(record_ids))
    out: dict[str, RecordVectors] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        rows = db.fetch(
            f"SELECT r.id, r.space_id, {statement_column}, e.digest, e.vec FROM records r"
            f" LEFT JOIN {statement_table} s ON s.{link} = r.{key}"
            f" LEFT JOIN evidence_vectors e ON e.{link} = r.{key}"
            f" WHERE r.space_id = ? AND r.id IN ({marks(len(chunk))})",
            [space_id, *chunk],
        )
        for rid, owner, vec, digest, blob in rows:
            if not db.own(space_id, owner) or (vec is None and blob is None):
                continue
            out[str(rid)] = RecordVectors(
                statement=None if vec is None else decode(vec),
                evidence=None if blob is None else unpack(blob),
                evidence_digest=None if blob is None else str(digest),
            )
    return out
