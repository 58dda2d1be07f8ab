"""A space's index: exact while small, HNSW once brute force would cost more than a few ms.

Most spaces hold fewer than 10k records, and for them exact search is both cheaper and better
(true top k, no graph to build). Past `threshold` rows the exact matvec outgrows its budget
(bench/vector_index.py measures ~75 ns a row), so the index moves itself to HNSW once, inside
the `add` that crosses the line. It never moves back: a space that shrank is still one that
grew, and bouncing between tiers would rebuild a graph each time.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from forethought.errors import InvalidInput
from forethought.vectors.base import Hit, Keys, Matrix, VectorIndex
from forethought.vectors.exact import ExactIndex, check_batch
from forethought.vectors.hnsw import HnswIndex, HnswParams

__all__ = ["DEFAULT_THRESHOLD", "TieredIndex"]

# Exact search over 20k rows takes ~1.5 ms (p95 ~1.7 ms) on the 2-core reference machine, leaving
# room for a busy machine inside a few-ms budget; past 30k p95 passes 2.5 ms and at 50k 4 ms. The
# one-off move to HNSW grows with the threshold too: ~3 s at 20k, ~10 s at 50k.
# See threshold_sweep in bench/results/vector_index.json.
DEFAULT_THRESHOLD = 20_000


class TieredIndex(VectorIndex):
    """`ExactIndex` up to `threshold` entries, then `HnswIndex`; `exact` tells the current tier.

    The move happens in the `add` that would take the index past `threshold`: every live entry is
    copied into a new HNSW index, the batch is added there, and the exact matrix is zeroed and
    dropped. That `add` therefore costs one HNSW build of `threshold` vectors.
    """

    def __init__(self, dim: int, threshold: int = DEFAULT_THRESHOLD, hnsw_params: HnswParams | None = None) -> None:
        super().__init__(dim)
        if threshold < 0:
            raise InvalidInput(f"threshold must be non-negative, got {threshold}")
        self.threshold = threshold
        self._hnsw_params = hnsw_params
        self._exact: ExactIndex | None = ExactIndex(dim)
        self._inner: VectorIndex = self._exact
        self.exact = True

    def __len__(self) -> int:
        return len(self._inner)

    def add(self, keys: Keys, vectors: Matrix) -> None:
        # Validate before migrating, so a bad batch leaves the index exactly as it was.
        keys64, matrix = check_batch(self.dim, keys, vectors)
        if self._exact is not None and len(self._exact) + keys64.size > self.threshold:
            present = np.isin(keys64, self._exact.keys())
            if present.any():
                raise InvalidInput(f"keys already present: {keys64[present][:10].tolist()}")
            self._migrate(self._exact)
        self._inner.add(keys64, matrix)

    def remove(self, keys: Iterable[int]) -> None:
        self._inner.remove(keys)

    def search(self, query: npt.NDArray[np.float32], k: int) -> list[Hit]:
        return self._inner.search(query, k)

    def keys(self) -> Keys:
        return self._inner.keys()

    @property
    def graph(self) -> HnswIndex | None:
        """The HNSW index once the space has grown past the threshold (what is worth saving)."""
        return self._inner if isinstance(self._inner, HnswIndex) else None

    @classmethod
    def from_graph(cls, graph: HnswIndex, threshold: int = DEFAULT_THRESHOLD) -> TieredIndex:
        """A tiered index already in its HNSW tier, e.g. one loaded from a snapshot."""
        index = cls(graph.dim, threshold)
        index._exact = None
        index._inner = graph
        index.exact = False
        return index

    def _migrate(self, exact: ExactIndex) -> None:
        hnsw = HnswIndex(self.dim, self._hnsw_params)
        keys, vectors = exact.items()
        hnsw.add(keys, vectors)
        vectors.fill(0.0)  # the copy handed over; erase it like the matrix it came from
        exact.clear()
        self._exact = None
        self._inner = hnsw
        self.exact = False
