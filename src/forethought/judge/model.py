"""The shipped sentence judge: pinned weights over the shipped MiniLM embeddings.

The weights file lives in the package and is used only if its bytes hash to `WEIGHTS_SHA256`
(checked by the embedder's own `verify`; retraining prints the new hash, see `judge/train.py`).
Loading is lazy and happens once per process (`shared_judge`); a missing or altered file raises
ModelUnavailable, and callers fall back to their deterministic rules.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from forethought.domain import Role
from forethought.embed.base import Embedder
from forethought.embed.onnx_minilm import MiniLMEmbedder, PinnedFile, verify
from forethought.errors import ModelUnavailable
from forethought.judge.acts import Act
from forethought.judge.features import features
from forethought.judge.network import Weights, forward, softmax

__all__ = [
    "REINSTALL",
    "WEIGHTS",
    "WEIGHTS_DIR",
    "WEIGHTS_SHA256",
    "Judgement",
    "SentenceJudge",
    "load_pinned",
    "shared_judge",
]

WEIGHTS_DIR = Path(__file__).with_name("weights")
WEIGHTS = WEIGHTS_DIR / "judge.npz"
REINSTALL = "pip install --force-reinstall forethought"
WEIGHTS_SHA256 = "30e1a8c2b8fafe5f1fbd828ecec86df793c9105375fa90506f61b654cde07ea3"


class _Fitted(Protocol):
    @property
    def embedder(self) -> str: ...


FittedT = TypeVar("FittedT", bound=_Fitted)


def load_pinned(what: str, path: Path, sha256: str, parse: Callable[[bytes], FittedT], embedder: Embedder) -> FittedT:
    """Weights parsed from a file used only if it hashes to `sha256` and was fitted on `embedder`'s
    embeddings; ModelUnavailable otherwise (callers fall back to their rules)."""
    weights = parse(verify(PinnedFile(what, path, sha256, REINSTALL)).read_bytes())
    if weights.embedder != embedder.name:
        raise ModelUnavailable(f"{what} were trained on {weights.embedder!r} embeddings, not {embedder.name!r}")
    return weights


@dataclass(frozen=True)
class Judgement:
    """What one sentence does, with calibrated probabilities."""

    act: Act
    confidence: float
    probabilities: Mapping[Act, float]
    kind: str | None  # the project kind the sentence would have as a rule
    kind_confidence: float

    def p(self, *acts: Act) -> float:
        return sum(self.probabilities.get(a, 0.0) for a in acts)


class SentenceJudge:
    def __init__(self, embedder: Embedder | None = None, *, path: Path = WEIGHTS, sha256: str = WEIGHTS_SHA256) -> None:
        self._embedder = embedder
        self._path = path
        self._sha256 = sha256
        self._weights: Weights | None = None
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Embedder:
        """The embedder the judge reads sentences with (MiniLM unless one was given)."""
        with self._lock:
            if self._embedder is None:
                self._embedder = MiniLMEmbedder()
            return self._embedder

    def _load(self) -> tuple[Weights, Embedder]:
        embedder = self.embedder
        with self._lock:
            if self._weights is None:
                self._weights = load_pinned(
                    "sentence judge weights", self._path, self._sha256, Weights.from_bytes, embedder
                )
            return self._weights, embedder

    def judge(self, items: Sequence[tuple[str, Role]]) -> list[Judgement]:
        """One judgement per (sentence, speaker), in order."""
        return self.judge_and_embed(items)[0] if items else []

    def judge_and_embed(self, items: Sequence[tuple[str, Role]]) -> tuple[list[Judgement], npt.NDArray[np.float32]]:
        """The judgements and the sentences' normalised embeddings (one row each), computed once."""
        weights, embedder = self._load()
        if not items:
            return [], np.zeros((0, embedder.dim), dtype=np.float32)
        x = features(embedder, [t for t, _ in items], [r for _, r in items])
        act_logits, kind_logits = forward(weights, x)
        pa = softmax(act_logits, weights.temperature_act)
        pk = softmax(kind_logits, weights.temperature_kind)
        acts = [Act(a) for a in weights.acts]
        out = []
        for row, krow in zip(pa, pk, strict=True):
            best = int(np.argmax(row))
            k = int(np.argmax(krow))
            out.append(
                Judgement(
                    act=acts[best],
                    confidence=float(row[best]),
                    probabilities={a: float(p) for a, p in zip(acts, row, strict=True)},
                    kind=weights.kinds[k],
                    kind_confidence=float(krow[k]),
                )
            )
        return out, x[:, : embedder.dim]


# Building one reads nothing: the embedder and the weights load on first use, under its lock.
_SHARED = SentenceJudge()


def shared_judge() -> SentenceJudge:
    """The process-wide judge over the shipped weights and a MiniLM embedder of its own."""
    return _SHARED
