"""Per-space nearest-neighbour indexes over unit embeddings, kept in step with the store.

VectorIndex (base.py)   the seam: add / remove / search / keys, `exact` capability
├── ExactIndex          brute force over a float32 matrix; small spaces
├── HnswIndex           usearch HNSW over int8 vectors; large spaces
└── TieredIndex         exact until DEFAULT_THRESHOLD entries, then HNSW (what `new_index` gives)
"""

from __future__ import annotations

from forethought.vectors.base import Hit, VectorIndex
from forethought.vectors.exact import ExactIndex
from forethought.vectors.hnsw import HnswIndex, HnswParams
from forethought.vectors.tiered import DEFAULT_THRESHOLD, TieredIndex

__all__ = [
    "DEFAULT_THRESHOLD",
    "ExactIndex",
    "Hit",
    "HnswIndex",
    "HnswParams",
    "TieredIndex",
    "VectorIndex",
    "new_index",
]


def new_index(dim: int, threshold: int = DEFAULT_THRESHOLD) -> TieredIndex:
    """The index a new space gets: exact while small, HNSW once it grows past the threshold."""
    return TieredIndex(dim, threshold)
