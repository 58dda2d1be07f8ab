"""Approximate nearest-neighbour search with usearch's HNSW graph over int8-quantised vectors.

Why these choices (bench/vector_index.py; figures in bench/results/vector_index.json):
- int8, not float16: 384 bytes a vector instead of 768, for the same recall once quantised as
  below. 1M vectors take ~650 MB of RSS with the graph, inside the 1.5 GB process budget.
- We quantise ourselves (each row scaled so its largest component maps to ±127) instead of
  letting usearch cast: usearch normalises and multiplies by 127, which leaves unit 384-dim
  embeddings (components ~0.05) only a handful of integer levels and caps recall@10 near 0.90.
  Cosine is scale-invariant, so per-row scaling costs nothing; the ceiling becomes ~0.99.
- Parameters are tuned at 1M, not 100k: at 100k nearly any setting reaches recall@10 ≥ 0.95, at
  1M `expansion_add=64` stays below 0.9 whatever the search breadth, while 128 with
  `expansion_search=512` gives 0.97 at a few ms. Inserts run on one thread (see `add`).
- Removal is usearch's `remove`: the key leaves the key table at once (and `search` filters on
  `contains` anyway), the graph node becomes a tombstone. The removed vector's bytes stay in
  usearch's memory, and in anything it would save, until a later `add` reuses the slot (free
  slots are reused oldest first) or `compact()` rebuilds the index; `pending_erasure` counts them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from usearch.index import Index

from forethought.errors import InvalidInput
from forethought.vectors.base import Hit, Keys, Matrix, VectorIndex
from forethought.vectors.exact import check_batch, check_k, check_query

__all__ = ["HnswIndex", "HnswParams", "quantise"]

Int8Matrix = npt.NDArray[np.int8]


@dataclass(frozen=True)
class HnswParams:
    """usearch graph parameters, tuned for recall@10 ≥ 0.95 at k=50 on 1M 384-dim embeddings.

    connectivity: edges per node (memory and build time grow with it).
    expansion_add: candidate list size while inserting (build quality vs. insert speed).
    expansion_search: candidate list size while searching (recall vs. latency).
    """

    connectivity: int = 16
    expansion_add: int = 128
    expansion_search: int = 512


def quantise(vectors: Matrix) -> Int8Matrix:
    """Scale each row so its largest |component| is 127 and round to int8 (rows must be nonzero)."""
    scale = 127.0 / np.abs(vectors).max(axis=1, keepdims=True)
    quantised: Int8Matrix = np.rint(vectors * scale).astype(np.int8)
    return quantised


class HnswIndex(VectorIndex):
    """usearch HNSW over int8 vectors with the cosine metric; `exact = False`."""

    exact = False

    def __init__(self, dim: int, params: HnswParams | None = None) -> None:
        super().__init__(dim)
        self.params = params or HnswParams()
        self._index = self._new_usearch_index()
        self._dirty_free_slots = 0

    def __len__(self) -> int:
        return int(self._index.size)

    @property
    def expansion_search(self) -> int:
        """The search-time candidate list size; raise it for recall, lower it for latency."""
        return int(self._index.expansion_search)

    @expansion_search.setter
    def expansion_search(self, value: int) -> None:
        if value <= 0:
            raise InvalidInput(f"expansion_search must be positive, got {value}")
        # usearch declares this setter in a way mypy reads as a read-only property.
        self._index.expansion_search = value  # type: ignore[misc]

    @property
    def pending_erasure(self) -> int:
        """How many removed vectors may still have their bytes in usearch's memory."""
        return self._dirty_free_slots

    def add(self, keys: Keys, vectors: Matrix) -> None:
        keys64, matrix = check_batch(self.dim, keys, vectors)
        if keys64.size == 0:
            return
        labels = keys64.astype(np.uint64)
        present = np.asarray(self._index.contains(labels), dtype=bool).reshape(-1)
        if present.any():
            raise InvalidInput(f"keys already present: {keys64[present][:10].tolist()}")
        # One thread on purpose: usearch 2.26's parallel insert leaves some nodes unreachable
        # (a vector not found even by searching for itself: ~1 in 2,000 at 20k rows, far more in
        # small graphs), and a memory that can never be recalled is a bug here. Costs ~2x build time.
        self._index.add(labels, quantise(matrix), threads=1)
        # usearch fills free slots (oldest first) before taking new ones, overwriting their bytes.
        self._dirty_free_slots = max(0, self._dirty_free_slots - int(keys64.size))

    def remove(self, keys: Iterable[int]) -> None:
        labels = np.fromiter((int(key) for key in keys), dtype=np.int64)
        labels = np.unique(labels[labels >= 0]).astype(np.uint64)  # negatives can't be present
        if labels.size == 0:
            return
        removed = np.asarray(self._index.remove(labels), dtype=np.int64)
        self._dirty_free_slots += int(removed.sum())

    def search(self, query: npt.NDArray[np.float32], k: int) -> list[Hit]:
        vector = check_query(self.dim, query)
        k = check_k(k)
        if len(self) == 0:
            return []
        matches = self._index.search(quantise(vector.reshape(1, -1))[0], k)
        labels = np.asarray(matches.keys, dtype=np.uint64)
        distances = np.asarray(matches.distances, dtype=np.float64)
        # usearch drops removed keys itself (checked by tests); this guards that promise cheaply
        # against a future version, since returning a removed record is a correctness bug here.
        live = np.asarray(self._index.contains(labels), dtype=bool).reshape(-1)
        similarities = np.clip(1.0 - distances[live], -1.0, 1.0)
        return [
            Hit(key, score)
            for key, score in zip(labels[live].astype(np.int64).tolist(), similarities.tolist(), strict=True)
        ]

    def keys(self) -> Keys:
        return np.asarray(self._index.keys, dtype=np.uint64).astype(np.int64)

    def compact(self) -> None:
        """Rebuild the graph from the live vectors only.

        Drops every tombstone, so no removed vector's bytes remain in the new index and search
        quality is as after a fresh build. Costs a full build (see the bench for vectors/s) and
        briefly holds both indexes in memory.
        """
        labels = np.asarray(self._index.keys, dtype=np.uint64)
        fresh = self._new_usearch_index()
        for start in range(0, labels.size, 16_384):
            chunk = labels[start : start + 16_384]
            got = self._index.get(chunk)
            parts = got if isinstance(got, tuple) else (got,)
            rows = [row for row in parts if row is not None]  # every key listed is live
            fresh.add(chunk, np.vstack(rows).astype(np.int8), threads=1)  # see `add`
        # Free the old graph now rather than at garbage collection (freed, not zeroed: see above).
        self._index.reset()  # type: ignore[no-untyped-call]
        self._index = fresh
        self._dirty_free_slots = 0

    def save(self, path: Path) -> None:
        """Write the index to `path`. Refused while removed vectors may linger in its memory: a
        file must never carry the bytes of an erased vector (compact first)."""
        if self._dirty_free_slots:
            raise InvalidInput("the index holds removed vectors' bytes; compact it before saving")
        self._index.save(str(path))

    @classmethod
    def load(cls, path: Path, dim: int, params: HnswParams | None = None) -> HnswIndex:
        """An index read back from a file written by `save` (raises ValueError if it does not fit)."""
        index = cls(dim, params)
        index._index.load(str(path))
        if int(index._index.ndim) != dim:
            raise InvalidInput(f"{path} holds {index._index.ndim}-dimensional vectors, not {dim}")
        return index

    def _new_usearch_index(self) -> Index:
        return Index(
            ndim=self.dim,
            metric="cos",
            dtype="i8",
            connectivity=self.params.connectivity,
            expansion_add=self.params.expansion_add,
            expansion_search=self.params.expansion_search,
        )
