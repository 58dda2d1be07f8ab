"""Embedders: text in, unit vectors out (the seam is `Embedder` in `base.py`)."""

from __future__ import annotations

from forethought.embed.base import Embedder, Vectors
from forethought.embed.hashing import HashingEmbedder
from forethought.embed.onnx_minilm import MiniLMEmbedder

__all__ = ["Embedder", "HashingEmbedder", "MiniLMEmbedder", "Vectors", "default_embedder"]


def default_embedder() -> Embedder:
    """The embedder Forethought uses unless told otherwise: MiniLM.

    No silent fallback to hashing: vectors of two spaces must never mix, so a missing or altered
    model surfaces as ModelUnavailable on the first embed rather than as quietly worse recall.
    """
    return MiniLMEmbedder()
