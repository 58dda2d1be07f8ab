"""The Embedder seam: text in, L2-normalised float32 vectors out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from forethought.errors import InvalidInput

__all__ = ["Embedder", "Vectors", "check_texts"]

Vectors = npt.NDArray[np.float32]


def check_texts(texts: Sequence[str]) -> list[str]:
    """The texts as a list, refusing the two mistakes every embedder would otherwise share."""
    # A bare str is a Sequence[str] too; embedding it character by character is never meant.
    if isinstance(texts, str):
        raise InvalidInput("embed() takes a sequence of texts, not a single str; use embed_one()")
    out = list(texts)
    for i, text in enumerate(out):
        if not isinstance(text, str):
            raise InvalidInput(f"text {i} is {type(text).__name__}, not str")
    return out


class Embedder(ABC):
    """Turns texts into unit vectors so that a dot product is the cosine similarity.

    Contract:
    - `name` identifies the model and its version; stored vectors are tagged with it, and a store
      refuses to mix vectors of two names in one space.
    - `dim` is the vector length.
    - `embed(texts)` returns an array of shape (len(texts), dim), dtype float32, each row of
      L2 norm 1 (a text with no content still gets a unit vector, never NaN); it is
      deterministic for the same input; an empty sequence gives shape (0, dim).
    - Raises ModelUnavailable when the model cannot be loaded; never downloads anything.
    """

    name: str
    dim: int

    @abstractmethod
    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed a batch of texts."""

    def embed_one(self, text: str) -> Vectors:
        """Embed one text: a vector of shape (dim,)."""
        vector: Vectors = self.embed([text])[0]
        return vector
