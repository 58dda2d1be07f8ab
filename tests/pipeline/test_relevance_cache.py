"""The brief's relevance features embed each record text once per process, and the cache gives
back exactly the rows the embedder gives."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from forethought.embed.base import Vectors
from forethought.embed.hashing import HashingEmbedder
from forethought.pipeline import relevance


class Counting(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.seen += list(texts)
        return super().embed(texts)


def test_each_distinct_text_is_embedded_once_and_rows_match_the_embedder() -> None:
    embedder = Counting()
    texts = ["never cache tokens", "use date-fns", "never cache tokens", "a fresh query 17"]
    first = relevance._embedded(embedder, texts)
    assert embedder.seen == ["never cache tokens", "use date-fns", "a fresh query 17"]
    again = relevance._embedded(embedder, ["use date-fns", "another query 18"])
    assert embedder.seen[3:] == ["another query 18"]  # the statement came from the cache
    plain = np.asarray(HashingEmbedder().embed(texts), dtype=np.float32)
    assert np.array_equal(first, plain) and np.array_equal(again[0], plain[1])


def test_the_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relevance, "MAX_CACHED_VECTORS", 3)
    relevance._embedded(Counting(), [f"text number {i}" for i in range(10)])
    assert len(relevance._VECTORS) <= 3
