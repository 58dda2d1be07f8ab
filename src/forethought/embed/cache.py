"""Vectors of texts that come back call after call, kept per embedder instance, bounded.

Record statements and quotes are embedded brief after brief, and a recall query is embedded
again by every recall that repeats it (a check's second, narrower recall; the files of one diff).
`embedded(embedder, texts)` embeds only the distinct texts that embedder has not seen yet, in one
batch, and keeps each vector (least recently used dropped first). Keyed by the embedder object
itself, so a cache never outlives it or answers for another instance; a failed call keeps nothing.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from forethought.embed.base import Embedder, Vectors

__all__ = ["MAX_CACHED_VECTORS", "embedded", "remember"]

MAX_CACHED_VECTORS = 20_000  # per embedder: ~30 MB of 384-dimension float32 rows

_CACHES: weakref.WeakKeyDictionary[Embedder, OrderedDict[str, Vectors]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def embedded(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    """One row per text (shape (len(texts), dim)), each distinct text not seen before embedded once."""
    order = list(dict.fromkeys(texts))
    with _LOCK:
        cache = _CACHES.setdefault(embedder, OrderedDict())
        known = {t: cache[t] for t in order if t in cache}
        for t in known:
            cache.move_to_end(t)
    missing = [t for t in order if t not in known]
    if missing:
        fresh = np.asarray(embedder.embed(missing), dtype=np.float32)
        with _LOCK:
            for t, row in zip(missing, fresh, strict=True):
                known[t] = row
                cache[t] = row
            while len(cache) > MAX_CACHED_VECTORS:
                cache.popitem(last=False)
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    return np.stack([known[t] for t in texts]).astype(np.float32, copy=False)


def remember(embedder: Embedder, texts: Sequence[str], vectors: Vectors) -> None:
    """Keep vectors made earlier (read back from a store) as `embedder`'s for `texts`, so the next
    `embedded` call for them runs no model. The caller vouches that they are that embedder's."""
    rows = np.asarray(vectors, dtype=np.float32)
    if rows.shape != (len(texts), embedder.dim):
        raise ValueError(f"{len(texts)} texts but vectors of shape {rows.shape}")
    with _LOCK:
        cache = _CACHES.setdefault(embedder, OrderedDict())
        for text, row in zip(texts, rows, strict=True):
            if text not in cache:
                cache[text] = row
            cache.move_to_end(text)
        while len(cache) > MAX_CACHED_VECTORS:
            cache.popitem(last=False)
