"""Exact nearest-neighbour search: one contiguous float32 matrix, one matrix-vector product per query.

Also home of the input checks every `VectorIndex` in this package applies, so that all of them
reject the same bad input with the same message (they would sit in `base.py` if the seam grew
helpers).

Why this shape:
- A single contiguous matrix makes a query one matrix-vector product plus an `argpartition`, a
  single pass over memory (bench/vector_index.py: under 1 ms at 10k rows).
- Rows are appended into spare capacity that doubles when full, so `add` is amortised O(1) per row.
- Removal moves the last row into the hole ("swap with last"), keeping rows 0..n-1 dense, and then
  zeroes the vacated row. Erasure matters in this product: once `remove` returns, no byte of the
  removed vector is left in the matrix. Buffers dropped on growth are zeroed too.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from forethought.errors import InvalidInput
from forethought.vectors.base import Hit, Keys, Matrix, VectorIndex

__all__ = ["ExactIndex", "check_batch", "check_k", "check_query"]

# A row whose norm is further than this from 1 is not an embedding the caller meant to give:
# float32 normalisation errors are ~1e-7, so 1e-3 only catches real mistakes (unnormalised
# or zero vectors) that would make every similarity wrong.
_NORM_TOLERANCE = 1e-3
_INITIAL_CAPACITY = 1024


def check_batch(dim: int, keys: object, vectors: object) -> tuple[Keys, Matrix]:
    """Validate an `add` batch; return keys as int64 and vectors as C-contiguous float32.

    Raises InvalidInput (a ValueError) for: keys that are not a 1-D integer array, negative keys
    (usearch reserves the top of its unsigned key space, which -1 would map to), repeated keys,
    vectors that are not a float32 (n, dim) array matching the keys, non-finite values, or rows
    that are not of unit norm. Whether keys are already present is each index's own check.
    """
    if not isinstance(keys, np.ndarray) or keys.ndim != 1 or not np.issubdtype(keys.dtype, np.integer):
        raise InvalidInput(f"keys must be a 1-D integer numpy array, got {_describe(keys)}")
    if not isinstance(vectors, np.ndarray) or vectors.dtype != np.float32:
        raise InvalidInput(f"vectors must be a float32 numpy array, got {_describe(vectors)}")
    if vectors.shape != (keys.shape[0], dim):
        raise InvalidInput(
            f"vectors must have shape ({keys.shape[0]}, {dim}) for {keys.shape[0]} keys "
            f"and dimension {dim}, got {vectors.shape}"
        )
    keys64 = keys.astype(np.int64)
    if keys64.size and int(keys64.min()) < 0:
        raise InvalidInput("keys must be non-negative")
    if np.unique(keys64).size != keys64.size:
        raise InvalidInput("keys must be distinct within a batch")
    matrix = np.ascontiguousarray(vectors)
    _check_rows(matrix, "vectors")
    return keys64, matrix


def check_query(dim: int, query: object) -> npt.NDArray[np.float32]:
    """Validate a query vector: float32, shape (dim,), finite, unit norm. Raises InvalidInput."""
    if not isinstance(query, np.ndarray) or query.dtype != np.float32:
        raise InvalidInput(f"query must be a float32 numpy array, got {_describe(query)}")
    if query.shape != (dim,):
        raise InvalidInput(f"query must have shape ({dim},), got {query.shape}")
    vector = np.ascontiguousarray(query)
    _check_rows(vector.reshape(1, dim), "query")
    return vector


def check_k(k: object) -> int:
    """Validate the number of hits asked for: a positive int. Raises InvalidInput."""
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k <= 0:
        raise InvalidInput(f"k must be a positive integer, got {k!r}")
    return int(k)


def _check_rows(matrix: Matrix, what: str) -> None:
    if not np.isfinite(matrix).all():
        raise InvalidInput(f"{what} contain NaN or infinite values")
    norms = np.linalg.norm(matrix, axis=1)
    if norms.size and float(np.abs(norms - 1.0).max()) > _NORM_TOLERANCE:
        raise InvalidInput(f"{what} must be of unit L2 norm (cosine search over normalised embeddings)")


def _describe(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"ndarray of dtype {value.dtype} and shape {value.shape}"
    return type(value).__name__


class ExactIndex(VectorIndex):
    """Brute-force cosine search over every row; `exact = True`.

    Memory is 4 * dim bytes per row plus up to 2x slack from capacity doubling, so this is for
    small spaces (`TieredIndex` moves a space to HNSW before it gets expensive).
    """

    exact = True

    def __init__(self, dim: int) -> None:
        super().__init__(dim)
        self._matrix: Matrix = np.zeros((_INITIAL_CAPACITY, dim), dtype=np.float32)
        self._row_keys: Keys = np.zeros(_INITIAL_CAPACITY, dtype=np.int64)
        self._rows: dict[int, int] = {}  # key -> row; rows 0..len-1 are live, the rest are zero

    def __len__(self) -> int:
        return len(self._rows)

    def add(self, keys: Keys, vectors: Matrix) -> None:
        keys64, matrix = check_batch(self.dim, keys, vectors)
        present = [int(key) for key in keys64 if int(key) in self._rows]
        if present:
            raise InvalidInput(f"keys already present: {present[:10]}")
        start, end = len(self), len(self) + keys64.size
        self._reserve(end)
        self._matrix[start:end] = matrix
        self._row_keys[start:end] = keys64
        self._rows.update(zip(keys64.tolist(), range(start, end), strict=True))

    def remove(self, keys: Iterable[int]) -> None:
        for key in keys:
            row = self._rows.pop(int(key), None)
            if row is None:
                continue
            last = len(self._rows)  # index of the last live row before this removal
            if row != last:
                moved_key = int(self._row_keys[last])
                self._matrix[row] = self._matrix[last]
                self._row_keys[row] = moved_key
                self._rows[moved_key] = row
            # The vacated row is the last one either way; erase it.
            self._matrix[last] = 0.0
            self._row_keys[last] = 0

    def search(self, query: npt.NDArray[np.float32], k: int) -> list[Hit]:
        vector = check_query(self.dim, query)
        k = check_k(k)
        n = len(self)
        if n == 0:
            return []
        # einsum runs numpy's own single-threaded SIMD loop. `matrix @ vector` would go to
        # multi-threaded BLAS, which on a busy 2-core machine (the embedder and the server share
        # it) has p95 several times worse than one thread: bench/vector_index.py, numpy-blas row.
        similarities = np.einsum("ij,j->i", self._matrix[:n], vector)
        if k < n:
            top = np.argpartition(-similarities, k - 1)[:k]
            order = top[np.argsort(-similarities[top], kind="stable")]
        else:
            order = np.argsort(-similarities, kind="stable")
        keys = self._row_keys[order].tolist()
        scores = np.clip(similarities[order], -1.0, 1.0).tolist()
        return [Hit(key, score) for key, score in zip(keys, scores, strict=True)]

    def keys(self) -> Keys:
        return self._row_keys[: len(self)].copy()

    def items(self) -> tuple[Keys, Matrix]:
        """Copies of the live keys and their vectors, row-aligned (used to migrate to HNSW)."""
        n = len(self)
        return self._row_keys[:n].copy(), self._matrix[:n].copy()

    def clear(self) -> None:
        """Remove every entry, zeroing the matrix first so no vector outlives the index."""
        self._matrix.fill(0.0)
        self._row_keys.fill(0)
        self._rows.clear()

    def _reserve(self, rows: int) -> None:
        capacity = self._matrix.shape[0]
        if rows <= capacity:
            return
        while capacity < rows:
            capacity *= 2
        n = len(self)
        matrix = np.zeros((capacity, self.dim), dtype=np.float32)
        row_keys = np.zeros(capacity, dtype=np.int64)
        matrix[:n] = self._matrix[:n]
        row_keys[:n] = self._row_keys[:n]
        # The old buffer goes back to the allocator as is; zero it so the copies it holds die here.
        self._matrix.fill(0.0)
        self._matrix, self._row_keys = matrix, row_keys
