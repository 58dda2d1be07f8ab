"""The vector cache embeds each distinct text once per embedder, gives back exactly the rows the
embedder gives, keeps nothing from a failed call, and never answers for another instance."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from forethought.embed import cache
from forethought.embed.base import Vectors
from forethought.embed.cache import embedded
from forethought.embed.hashing import HashingEmbedder
from forethought.errors import BackendError


class Counting(HashingEmbedder):
    def __init__(self, *, fail: bool = False) -> None:
        super().__init__()
        self.seen: list[str] = []
        self.fail = fail

    def embed(self, texts: Sequence[str]) -> Vectors:
        if self.fail:
            raise BackendError("the model is down")
        self.seen += list(texts)
        return super().embed(texts)


def test_each_distinct_text_is_embedded_once_and_rows_match_the_embedder() -> None:
    embedder = Counting()
    texts = ["never cache tokens", "use date-fns", "never cache tokens", "a fresh query 17"]
    first = embedded(embedder, texts)
    assert embedder.seen == ["never cache tokens", "use date-fns", "a fresh query 17"]
    again = embedded(embedder, ["use date-fns", "another query 18"])
    assert embedder.seen[3:] == ["another query 18"]  # the statement came from the cache
    plain = np.asarray(HashingEmbedder().embed(texts), dtype=np.float32)
    assert first.shape == (4, embedder.dim)
    assert np.array_equal(first, plain) and np.array_equal(again[0], plain[1])


def test_the_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_CACHED_VECTORS", 3)
    embedder = Counting()
    embedded(embedder, [f"text number {i}" for i in range(10)])
    embedded(embedder, ["text number 0"])  # dropped long ago: embedded again
    assert embedder.seen[-1] == "text number 0" and len(embedder.seen) == 11


def test_a_failed_call_keeps_nothing_and_fails_again() -> None:
    embedder = Counting(fail=True)
    for _ in range(2):
        with pytest.raises(BackendError):
            embedded(embedder, ["a query"])
    embedder.fail = False
    assert embedded(embedder, ["a query"]).shape == (1, embedder.dim)
    assert embedder.seen == ["a query"]


def test_instances_do_not_share_vectors_and_no_texts_give_an_empty_array() -> None:
    one, two = Counting(), Counting()
    embedded(one, ["the same text"])
    embedded(two, ["the same text"])
    assert one.seen == two.seen == ["the same text"]
    assert embedded(one, []).shape == (0, one.dim)
