"""A deterministic embedder with no model: signed feature hashing of words and 3-grams.

For tests, for minimal installs and for scale runs where the model's cost would hide the cost
being measured. It captures surface overlap only (shared words, shared word pieces, similar
spellings), never meaning: "car" and "automobile" are unrelated here.

Features of a text, all lowercased:
- each word (`\\w+`, hyphen-joined runs kept whole: `read-only`);
- the parts of an identifier, as words too: `PrismaClient`, `prisma_client` and `prisma-client`
  all add `prisma` and `client`, so they meet the plain words "prisma client";
- the character 3-grams of each word with boundary marks (`<pr`, `pri`, ..., `nt>`), so
  spelling variants and inflections overlap.

Each feature is hashed with BLAKE2b (stable across processes and machines, unlike the salted
built-in `hash()`) to a bucket and a sign; its weight is `family weight * (1 + ln count)`, so a
word repeated ten times counts about three times, not ten. Rows are L2-normalised; a text with no
features gets e_0.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from forethought.embed.base import Embedder, Vectors, check_texts
from forethought.errors import InvalidInput

__all__ = ["HashingEmbedder"]

_WORD = re.compile(r"\w+(?:-\w+)*")
_SEPARATORS = re.compile(r"[_\-]+")
# ASCII camelCase pieces: "HTTPServer" -> HTTP, Server; "getV2Data" -> get, V, 2, Data.
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

# A word is one feature but yields len(word) grams; at 0.4 the grams of a typical six-letter
# word weigh about as much as the word itself (6 * 0.4^2 ≈ 1 in squared norm): shared words
# still dominate, and shared spelling ("deploy"/"deployment") counts for something. Measured:
# 0.3 vs 0.5 moves unrelated-text noise by <1% and spelling-variant similarity from 0.19 to 0.32.
WORD_WEIGHT = 1.0
GRAM_WEIGHT = 0.4
# Grams of very long tokens (hashes, base64 blobs, URLs) would swamp the rest of the text while
# carrying no shared meaning; only their first characters make grams.
_MAX_GRAM_CHARS = 64

# A feature code is 50 bits: bit 0 the family (0 word, 1 gram), bits 1-48 choose the bucket,
# bit 49 the sign. The row number of a text in its chunk sits above them, so one np.unique over
# (row, code) keys counts every feature of every text at once.
_CODE_BITS = 50
_CODE_MASK = (1 << _CODE_BITS) - 1
_BUCKET_MASK = (1 << 48) - 1
_CHUNK = 4096  # rows per np.unique; must stay below 2**(63 - _CODE_BITS)
_CACHE_LIMIT = 100_000  # distinct raw tokens remembered; cleared (not evicted) when full
_PERSON = b"forethought-h1"  # BLAKE2b personalisation: changes every hash if the scheme changes


def _code(feature: str, gram: bool) -> int:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, person=_PERSON).digest()
    return ((int.from_bytes(digest, "little") & _CODE_MASK) & ~1) | int(gram)


def _identifier_parts(token: str) -> list[str]:
    parts: list[str] = []
    for piece in _SEPARATORS.split(token):
        # camelCase is only read in ASCII; elsewhere `re` cannot tell upper from lower case.
        parts.extend(_CAMEL.findall(piece) if piece.isascii() else [piece])
    return [p.lower() for p in parts if p]


def _token_codes(token: str) -> tuple[int, ...]:
    """The feature codes one raw (case-preserved) token contributes."""
    lower = token.lower()
    codes = [_code(lower, gram=False)]
    parts = _identifier_parts(token)
    if len(parts) > 1:
        codes.extend(_code(p, gram=False) for p in parts)
    marked = f"<{lower[:_MAX_GRAM_CHARS]}>"
    codes.extend(_code(marked[i : i + 3], gram=True) for i in range(len(marked) - 2))
    return tuple(codes)


class HashingEmbedder(Embedder):
    """Signed feature hashing into `dim` buckets; deterministic across processes and machines.

    Raises InvalidInput for a dim below 2 or a non-text input; never raises ModelUnavailable.
    """

    def __init__(self, dim: int = 384) -> None:
        if dim < 2:
            raise InvalidInput(f"dim must be at least 2, got {dim}")
        self.dim = dim
        self.name = f"hashing-{dim}"
        self._cache: dict[str, tuple[int, ...]] = {}

    def embed(self, texts: Sequence[str]) -> Vectors:
        items = check_texts(texts)
        out = np.empty((len(items), self.dim), dtype=np.float32)
        for start in range(0, len(items), _CHUNK):
            out[start : start + _CHUNK] = self._embed_chunk(items[start : start + _CHUNK])
        return out

    def _embed_chunk(self, texts: list[str]) -> Vectors:
        # Python only looks tokens up (each distinct token is hashed once, then cached); counting,
        # weighting and bucketing run in numpy over the whole chunk.
        cache = self._cache
        flat: list[int] = []
        lengths = np.empty(len(texts), dtype=np.int64)
        for row, text in enumerate(texts):
            before = len(flat)
            for token in _WORD.findall(text):
                hit = cache.get(token)
                if hit is None:
                    if len(cache) >= _CACHE_LIMIT:
                        cache.clear()
                    hit = cache[token] = _token_codes(token)
                flat.extend(hit)
            lengths[row] = len(flat) - before
        rows = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
        keys, counts = np.unique((rows << _CODE_BITS) | np.array(flat, dtype=np.int64), return_counts=True)

        code = keys & _CODE_MASK
        weight = np.where(code & 1, GRAM_WEIGHT, WORD_WEIGHT) * (1.0 + np.log(counts))
        sign = np.where((code >> (_CODE_BITS - 1)) & 1, -1.0, 1.0)
        bucket = ((code >> 1) & _BUCKET_MASK) % self.dim
        cells = (keys >> _CODE_BITS) * self.dim + bucket
        summed = np.bincount(cells, weights=weight * sign, minlength=len(texts) * self.dim)
        matrix = summed.reshape(len(texts), self.dim)

        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        empty = norms[:, 0] < 1e-9  # no features at all (or, vanishingly rarely, all cancelled)
        unit: Vectors = (matrix / np.where(empty[:, None], 1.0, norms)).astype(np.float32)
        unit[empty] = np.eye(1, self.dim, dtype=np.float32)
        return unit
