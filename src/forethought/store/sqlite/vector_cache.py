"""Per-space in-memory vector indexes, kept in step with the `vectors` table.

The table is the truth. Each process builds a space's index on first search and then, before
every search, reads the space's two change counters (`vec_adds`, `vec_removes`) in the same read
transaction as the search: new rows are appended by rowid (rowids only grow, and SQLite commits
writes one at a time, so nothing can appear below the high-water mark), and when anything was
removed the index drops every key the table no longer has. Writes from other processes are
therefore visible on the next search, and erased vectors leave the index at once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from forethought.vectors import VectorIndex, new_index

__all__ = ["VectorCache", "decode_vector", "encode_vector"]

# Vectors are stored as float16: half the file size of float32, and the rounding (~1e-3) is far
# below the differences in similarity that decide a ranking.
_STORED = np.dtype("<f2")


def encode_vector(vector: npt.NDArray[np.float32]) -> bytes:
    return np.asarray(vector, dtype=_STORED).tobytes()


def decode_vector(blob: bytes) -> npt.NDArray[np.float32]:
    return np.frombuffer(blob, dtype=_STORED).astype(np.float32)


@dataclass
class _Entry:
    index: VectorIndex
    adds_seen: int = -1
    removes_seen: int = -1
    max_rowid: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class VectorCache:
    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def _entry(self, space_id: str) -> _Entry:
        with self._lock:
            entry = self._entries.get(space_id)
            if entry is None:
                entry = self._entries[space_id] = _Entry(new_index(self.dim))
            return entry

    def drop(self, space_id: str) -> None:
        with self._lock:
            self._entries.pop(space_id, None)

    def search(
        self, conn: Any, space_id: str, vector: npt.NDArray[np.float32], limit: int
    ) -> tuple[list[tuple[int, float]], int]:
        """(rowid, similarity) best first, and the index size. `conn` must be inside a read
        transaction so the counters and rows are one snapshot."""
        entry = self._entry(space_id)
        with entry.lock:
            self._sync(conn, space_id, entry)
            hits = entry.index.search(vector, min(limit, len(entry.index))) if len(entry.index) else []
            return [(h.key, h.similarity) for h in hits], len(entry.index)

    def _sync(self, conn: Any, space_id: str, entry: _Entry) -> None:
        row = conn.execute("SELECT vec_adds, vec_removes FROM spaces WHERE id = ?", (space_id,)).fetchone()
        if row is None:
            entry.index = new_index(self.dim)
            entry.adds_seen = entry.removes_seen = -1
            entry.max_rowid = 0
            return
        adds, removes = row
        if adds != entry.adds_seen:
            self._append(conn, space_id, entry)
            entry.adds_seen = adds
        if removes != entry.removes_seen:
            present = np.fromiter(
                (r[0] for r in conn.execute("SELECT record_rowid FROM vectors WHERE space_id = ?", (space_id,))),
                dtype=np.int64,
            )
            gone = np.setdiff1d(entry.index.keys(), present, assume_unique=True)
            if len(gone):
                entry.index.remove(int(k) for k in gone)
            entry.removes_seen = removes

    def _append(self, conn: Any, space_id: str, entry: _Entry) -> None:
        batch_keys: list[int] = []
        batch_vecs: list[bytes] = []

        def flush() -> None:
            if batch_keys:
                matrix = np.frombuffer(b"".join(batch_vecs), dtype=_STORED).reshape(-1, self.dim)
                entry.index.add(np.asarray(batch_keys, dtype=np.int64), matrix.astype(np.float32))
                entry.max_rowid = batch_keys[-1]
                batch_keys.clear()
                batch_vecs.clear()

        cursor = conn.execute(
            "SELECT record_rowid, vec FROM vectors WHERE space_id = ? AND record_rowid > ? ORDER BY record_rowid",
            (space_id, entry.max_rowid),
        )
        for rowid, blob in cursor:
            batch_keys.append(rowid)
            batch_vecs.append(blob)
            if len(batch_keys) >= 65_536:
                flush()
        flush()
