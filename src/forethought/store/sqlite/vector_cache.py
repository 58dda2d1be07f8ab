"""Per-space in-memory vector indexes, kept in step with the `vectors` table, with snapshots.

The table is the truth. Each process builds a space's index on first search and then, before
every search, reads the space's two change counters (`vec_adds`, `vec_removes`) in the same read
transaction as the search: new rows are appended by rowid (rowids only grow, and SQLite commits
writes one at a time, so nothing can appear below the high-water mark), and when anything was
removed the index drops every key the table no longer has. Writes from other processes are
therefore visible on the next search, and erased vectors leave the index at once.

Snapshots. Building a large HNSW graph takes minutes (about 1,600 vectors/s on two cores), so a
space past the exact tier is saved beside the database (`<db>.vectors/<space>.usearch` and a
`.json` with the counters it reflects) and loaded by the next process, which then only applies
what changed since. Erasure rules: any process that erases vectors deletes the space's snapshot
after committing; a snapshot is only written by an index holding no removed vector's bytes, and
is deleted again if a removal was committed meanwhile; a snapshot older than the last removal is
never loaded. So no file keeps an erased vector beyond the erasing call.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from forethought.store.sqlite.files import FILE_MODE, create_private, private_folder, write_private
from forethought.vectors import DEFAULT_THRESHOLD, HnswIndex, TieredIndex, new_index

__all__ = ["VectorCache", "decode_vector", "encode_vector"]

log = logging.getLogger(__name__)

# Vectors are stored as float16: half the file size of float32, and the rounding (~1e-3) is far
# below the differences in similarity that decide a ranking.
_STORED = np.dtype("<f2")
# Write a new snapshot once this many vectors were added since the last one (and 5% more).
_RESNAPSHOT = 10_000


def encode_vector(vector: npt.NDArray[np.float32]) -> bytes:
    return np.asarray(vector, dtype=_STORED).tobytes()


def decode_vector(blob: bytes) -> npt.NDArray[np.float32]:
    return np.frombuffer(blob, dtype=_STORED).astype(np.float32)


@dataclass
class _Entry:
    index: TieredIndex
    adds_seen: int = -1
    removes_seen: int = -1
    max_rowid: int = 0
    saved_size: int = 0  # index size at the last snapshot (0: none)
    lock: threading.Lock = field(default_factory=threading.Lock)


class VectorCache:
    def __init__(self, dim: int, *, snapshot_dir: Path | None = None, threshold: int = DEFAULT_THRESHOLD) -> None:
        self.dim = dim
        self.threshold = threshold
        self.snapshot_dir = snapshot_dir
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def _entry(self, space_id: str) -> _Entry:
        with self._lock:
            entry = self._entries.get(space_id)
            if entry is None:
                entry = self._entries[space_id] = _Entry(new_index(self.dim, self.threshold))
            return entry

    def drop(self, space_id: str) -> None:
        """Forget a space's index (after the space was erased) and delete its snapshot."""
        with self._lock:
            self._entries.pop(space_id, None)
        self.delete_snapshot(space_id)

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

    # -- keeping in step with the table ---------------------------------------------------------
    def _sync(self, conn: Any, space_id: str, entry: _Entry) -> None:
        row = conn.execute("SELECT vec_adds, vec_removes FROM spaces WHERE id = ?", (space_id,)).fetchone()
        if row is None:
            entry.index = new_index(self.dim, self.threshold)
            entry.adds_seen = entry.removes_seen = -1
            entry.max_rowid = entry.saved_size = 0
            return
        adds, removes = row
        if entry.adds_seen < 0:
            self._load_snapshot(space_id, entry, removes)
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

    # -- snapshots ------------------------------------------------------------------------------
    def _paths(self, space_id: str) -> tuple[Path, Path] | None:
        if self.snapshot_dir is None:
            return None
        return self.snapshot_dir / f"{space_id}.usearch", self.snapshot_dir / f"{space_id}.json"

    def delete_snapshot(self, space_id: str) -> None:
        paths = self._paths(space_id)
        for path in paths or ():
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def _load_snapshot(self, space_id: str, entry: _Entry, removes_now: int) -> None:
        paths = self._paths(space_id)
        if paths is None or not paths[0].exists():
            return
        graph_path, meta_path = paths
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
            if meta.get("dim") != self.dim or meta.get("removes") != removes_now:
                # Older than the last erasure (it may hold an erased vector), or another model.
                self.delete_snapshot(space_id)
                return
            graph = HnswIndex.load(graph_path, self.dim)
        except (OSError, ValueError, RuntimeError) as exc:
            log.warning("vector snapshot for a space is unreadable; rebuilding it (%s)", exc)
            self.delete_snapshot(space_id)
            return
        if len(graph) != meta.get("size"):
            self.delete_snapshot(space_id)  # the graph and its counters come from different saves
            return
        entry.index = TieredIndex.from_graph(graph, self.threshold)
        entry.adds_seen = int(meta["adds"])
        entry.removes_seen = int(meta["removes"])
        entry.max_rowid = int(meta["max_rowid"])
        entry.saved_size = len(graph)

    def maybe_snapshot(self, space_id: str, removes_now: Callable[[], int | None]) -> None:
        """Save the space's graph if it grew enough since the last snapshot. Call it outside any
        read transaction: `removes_now` must see the latest committed erasure counter."""
        paths = self._paths(space_id)
        entry = self._entries.get(space_id)
        if paths is None or entry is None:
            return
        with entry.lock:
            graph = entry.index.graph
            if graph is None or graph.pending_erasure:
                return
            grown = len(graph) - entry.saved_size
            if entry.saved_size and grown < max(_RESNAPSHOT, entry.saved_size // 20):
                return
            graph_path, meta_path = paths
            meta = {
                "dim": self.dim,
                "adds": entry.adds_seen,
                "removes": entry.removes_seen,
                "max_rowid": entry.max_rowid,
                "size": len(graph),
            }
            try:
                private_folder(graph_path.parent)
                tmp = graph_path.with_name(f"{graph_path.name}.{os.getpid()}.tmp")
                create_private(tmp)  # the index overwrites it in place, keeping the owner-only mode
                graph.save(tmp)
                os.chmod(tmp, FILE_MODE)
                tmp.replace(graph_path)
                tmp_meta = meta_path.with_name(f"{meta_path.name}.{os.getpid()}.tmp")
                write_private(tmp_meta, json.dumps(meta).encode("utf-8"))
                tmp_meta.replace(meta_path)
            except OSError as exc:
                log.warning("could not write a vector snapshot: %s", exc)
                self.delete_snapshot(space_id)
                return
            entry.saved_size = len(graph)
        # An erasure committed while the file was written is not in it: look after the rename
        # (an eraser deletes snapshots after its commit, so one of the two always wins).
        if removes_now() != meta["removes"]:
            self.delete_snapshot(space_id)
