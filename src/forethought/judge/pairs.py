"""The pair judge: does a later statement amend an earlier rule, restate it, sit beside it, or
concern something else? Learned, offline, over the shipped MiniLM embeddings.

Features of a pair (earlier `old`, later `new`): the cosine of their MiniLM embeddings, word
overlap, whether they share a code-shaped name, whether both carry numbers and the numbers differ,
whether `new` uses contrast words, and whether exactly one of them negates. A multinomial logistic
model (plain numpy, temperature calibrated on out-of-fold logits) maps them to the four labels of
`data/pairs/SPEC.md`. The embeddings' element-wise product and difference were measured as extra
features and left out: with 1,200 pairs they overfit (4-label accuracy 0.62 against 0.73). Trained by
`python -m forethought.judge.train_pairs`; the weights ship in the package and load only if they
hash to `PAIRS_SHA256` (else `ModelUnavailable`, and relation falls back to its rules).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from forethought.embed.base import Embedder
from forethought.judge.model import WEIGHTS_DIR, load_pinned, shared_judge
from forethought.text.amends import CONTRAST, negation_flips, new_value, shares_a_name, word_overlap

__all__ = ["LABELS", "PAIRS", "PAIRS_SHA256", "PairJudge", "PairWeights", "pair_features", "shared_pair_judge"]

Array = npt.NDArray[np.float32]
LABELS = ("amends", "restates", "related", "unrelated")
PAIRS = WEIGHTS_DIR / "pairs.npz"
PAIRS_SHA256 = "12dbfa4c239e970b31c3603f3352147ba53ebc4618a346ee8e3a9cab079f2517"  # train_pairs --final prints it

EXTRA = ("cosine", "overlap", "shared_name", "new_number", "contrast", "negation_flip")


def _extra(old: str, new: str) -> list[float]:
    """The word-level signals, as the relation stage's rule reads them (`text/amends.py`)."""
    flags = (shares_a_name(old, new), new_value(old, new), bool(CONTRAST.search(new)), negation_flips(old, new))
    return [word_overlap(old, new), *(1.0 if flag else 0.0 for flag in flags)]


def pair_features(embedder: Embedder, pairs: Sequence[tuple[str, str]]) -> Array:
    """One row per (old, new): the EXTRA columns, cosine first."""
    if not pairs:
        return np.zeros((0, len(EXTRA)), dtype=np.float32)
    texts = list(dict.fromkeys(t for pair in pairs for t in pair))  # each text embedded once
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    at = {t: i for i, t in enumerate(texts)}
    cosine = np.array([[float(vectors[at[o]] @ vectors[at[n]])] for o, n in pairs], dtype=np.float32)
    extra = np.array([_extra(o, n) for o, n in pairs], dtype=np.float32)
    return np.hstack([cosine, extra]).astype(np.float32)


@dataclass(frozen=True)
class PairWeights:
    w: Array  # (features, labels)
    b: Array
    labels: tuple[str, ...]
    temperature: float
    embedder: str
    mean: Array  # feature standardisation fitted on the training pairs
    scale: Array

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        np.savez(buffer, w=self.w, b=self.b, labels=np.array(self.labels), temperature=np.float32(self.temperature),
                 embedder=np.array(self.embedder), mean=self.mean, scale=self.scale)  # fmt: skip
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> PairWeights:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            return cls(w=z["w"], b=z["b"], labels=tuple(str(x) for x in z["labels"]),
                       temperature=float(z["temperature"]), embedder=str(z["embedder"]), mean=z["mean"],
                       scale=z["scale"])  # fmt: skip

    def probabilities(self, x: Array) -> Array:
        z = ((x - self.mean) / self.scale) @ self.w + self.b
        z = z / np.float32(self.temperature)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        out: Array = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        return out


class PairJudge:
    def __init__(self, embedder: Embedder | None = None, *, path: Path = PAIRS, sha256: str = PAIRS_SHA256) -> None:
        self._embedder = embedder
        self._path, self._sha256 = path, sha256
        self._weights: PairWeights | None = None
        self._lock = threading.Lock()

    def _load(self) -> tuple[PairWeights, Embedder]:
        embedder = self._embedder or shared_judge().embedder
        with self._lock:
            if self._weights is None:
                self._weights = load_pinned(
                    "pair judge weights", self._path, self._sha256, PairWeights.from_bytes, embedder
                )
            return self._weights, embedder

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]]:
        """Per (old, new): the calibrated probability of each label."""
        if not pairs:
            return []
        weights, embedder = self._load()
        rows = weights.probabilities(pair_features(embedder, pairs))
        return [{label: float(p) for label, p in zip(weights.labels, row, strict=True)} for row in rows]


_SHARED = PairJudge()  # reads nothing until first used


def shared_pair_judge() -> PairJudge:
    """The process-wide pair judge over the shipped weights (and the sentence judge's MiniLM)."""
    return _SHARED
