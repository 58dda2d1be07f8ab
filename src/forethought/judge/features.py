"""The judge's input: a sentence's MiniLM embedding, its hashed words, who said it, whether it asks.

The embedding carries the meaning; hashed word unigrams and bigrams carry the small function
words that decide an act but barely move an embedding ("next quarter", "for now", "tried");
the last two columns carry what the sentence alone cannot (an agent saying "we never log tokens"
proposes, a person saying it decides). Which words matter is learned, not listed.
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from forethought.domain import Role
from forethought.embed.base import Embedder
from forethought.embed.cache import embedded
from forethought.text.sentences import is_question

__all__ = ["EXTRA", "LEXICAL", "features", "lexical", "tokens"]

LEXICAL = 4096  # hashed word features
EXTRA = 2  # spoken by the person, ends with a question mark

_TOKEN = re.compile(r"`[^`]{1,80}`|\d+(?:[.,:]\d+)*|[a-z]+(?:'[a-z]+)?|[^\sa-z0-9]", re.I)


def tokens(text: str) -> list[str]:
    """Lower-cased words; code spans, numbers and paths become shape tokens."""
    out = []
    for raw in _TOKEN.findall(text):
        if raw.startswith("`"):
            out.append("<code>")
        elif raw[0].isdigit():
            out.append("<num>")
        elif raw.isalpha() or "'" in raw:
            out.append(raw.casefold())
        elif raw in "?!/":
            out.append(raw)
    return out


def _bucket(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) % LEXICAL


def lexical(texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """Binary unigram + bigram features, hashed into LEXICAL columns, each row of unit length."""
    out = np.zeros((len(texts), LEXICAL), dtype=np.float32)
    for i, text in enumerate(texts):
        words = ["<s>", *tokens(text)]
        grams = set(words[1:]) | {f"{a} {b}" for a, b in itertools.pairwise(words)}
        for gram in grams:
            out[i, _bucket(gram)] = 1.0
        norm = float(np.linalg.norm(out[i]))
        if norm:
            out[i] /= norm
    return out


def features(embedder: Embedder, texts: Sequence[str], speakers: Sequence[Role]) -> npt.NDArray[np.float32]:
    """One row per sentence: the normalised embedding, the hashed words, then the EXTRA columns."""
    if len(texts) != len(speakers):
        raise ValueError("one speaker per text")
    width = embedder.dim + LEXICAL + EXTRA
    if not texts:
        return np.zeros((0, width), dtype=np.float32)
    vectors = embedded(embedder, list(texts))  # a sentence judged again (a brief's excerpts) is not embedded again
    extra = np.array(
        [[1.0 if who is Role.USER else 0.0, 1.0 if is_question(text) else 0.0]
         for text, who in zip(texts, speakers, strict=True)],
        dtype=np.float32,
    )  # fmt: skip
    return np.hstack([vectors, lexical(texts), extra])
