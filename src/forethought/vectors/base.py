"""The VectorIndex seam: nearest-neighbour search over unit vectors, keyed by integers."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["Hit", "VectorIndex"]

Keys = npt.NDArray[np.int64]
Matrix = npt.NDArray[np.float32]


class Hit(NamedTuple):
    key: int
    similarity: float  # cosine similarity, in [-1, 1]


class VectorIndex(ABC):
    """An in-memory index of (key, unit vector) pairs for one space.

    Contract:
    - `add(keys, vectors)`: keys are distinct int64 not already present (adding a present key
      raises ValueError); vectors has shape (len(keys), dim), rows of unit norm.
    - `remove(keys)`: keys not present are ignored. After it returns, a removed key is never
      returned by `search`.
    - `search(query, k)`: up to k hits, best first, by cosine similarity. `exact` says whether
      the index promises the true top k (brute force) or an approximation (ANN).
    - `keys()`: every present key (any order).
    - Not thread-safe for concurrent writes; callers hold a lock per index.
    """

    exact: bool

    def __init__(self, dim: int) -> None:
        self.dim = dim

    @abstractmethod
    def add(self, keys: Keys, vectors: Matrix) -> None: ...

    @abstractmethod
    def remove(self, keys: Iterable[int]) -> None: ...

    @abstractmethod
    def search(self, query: npt.NDArray[np.float32], k: int) -> list[Hit]: ...

    @abstractmethod
    def keys(self) -> Keys: ...

    @abstractmethod
    def __len__(self) -> int: ...
