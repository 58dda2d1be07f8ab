"""Instruction-like text, judged: the word-class shapes of `text/injection.py`, then a logistic head
over the shipped MiniLM embeddings of the text's skeleton for what no shape names (a paraphrased
override, a note to "whoever summarises this", steering of later answers).

The head is trained by `judge/train_injection.py` on `data/injection/` (written from a spec by
someone who never saw this code) and its threshold calibrated there; its weights are pinned like
the sentence judge's (`INJECTION_SHA256`). Without the weights or the model, the shapes alone
decide (logged once). A long text is read in windows of `WINDOW_CHARS`, at most `MAX_WINDOWS` of
them (a record's statement, context and attributes fit; a longer turn is judged on its first
windows and by the shapes everywhere).
"""

from __future__ import annotations

import io
import logging
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from forethought.embed.base import Embedder, Vectors
from forethought.errors import ModelUnavailable
from forethought.judge.model import WEIGHTS_DIR, load_pinned, shared_judge
from forethought.text.injection import find_injection, skeleton

__all__ = [
    "INJECTION_WEIGHTS",
    "InjectionHead",
    "InjectionModel",
    "instruction_like",
    "instruction_like_each",
    "windows",
]

log = logging.getLogger(__name__)

INJECTION_WEIGHTS = WEIGHTS_DIR / "injection.npz"
# Printed by `python -m forethought.judge.train_injection ... --final`.
INJECTION_SHA256 = "5665246491fd1ef4bc3f297ef786c9bb08c9e6d83d6bf8b7ebc130ae8ee3a883"
WINDOW_CHARS = 400
MAX_WINDOWS = 24


@dataclass(frozen=True)
class InjectionHead:
    embedder: str
    mean: npt.NDArray[np.float32]
    scale: npt.NDArray[np.float32]
    w: npt.NDArray[np.float32]
    b: float
    threshold: float

    def probability(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        z = ((x - self.mean) / self.scale) @ self.w + self.b
        return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float32)

    def to_bytes(self) -> bytes:
        out = io.BytesIO()
        b, threshold = np.array(self.b, dtype=np.float32), np.array(self.threshold, dtype=np.float32)
        np.savez(
            out, embedder=np.array(self.embedder), mean=self.mean, scale=self.scale, w=self.w, b=b, threshold=threshold
        )
        return out.getvalue()

    @classmethod
    def from_bytes(cls, raw: bytes) -> InjectionHead:
        with np.load(io.BytesIO(raw), allow_pickle=False) as f:
            return cls(str(f["embedder"]), f["mean"], f["scale"], f["w"], float(f["b"]), float(f["threshold"]))


_WORD = re.compile(r"[^\W\d_]{2,}")
_PLACEHOLDER = re.compile(r"\[REDACTED:\w+\]|\[(?:email|phone|card)\]")
MIN_WORDS = 4


def _wordy(text: str) -> bool:
    """Whether a text has words enough to be judged by the head: a bare fragment ("Authorization:
    Basic [REDACTED:token]", a tag, an id) says too little, and the shapes still read it."""
    return len(_WORD.findall(_PLACEHOLDER.sub(" ", text), 0)) >= MIN_WORDS or not text.isascii()


def _plain(text: str, parts: Sequence[str]) -> bool:
    """Whether `text` is one window whose skeleton changed nothing but case and spacing."""
    return len(parts) == 1 and parts[0] == " ".join(text.split()).casefold()


def windows(text: str) -> list[str]:
    """The skeleton of `text` in windows of about `WINDOW_CHARS` characters, cut at spaces."""
    form = skeleton(text)
    out: list[str] = []
    while form and len(out) < MAX_WINDOWS:
        cut = len(form) if len(form) <= WINDOW_CHARS else form.rfind(" ", WINDOW_CHARS // 2, WINDOW_CHARS)
        cut = WINDOW_CHARS if cut <= 0 else cut
        out.append(form[:cut])
        form = form[cut:].lstrip()
    return out


class InjectionModel:
    def __init__(self, *, path: Path = INJECTION_WEIGHTS, sha256: str = INJECTION_SHA256) -> None:
        self._path, self._sha256 = path, sha256
        self._head: InjectionHead | None = None
        self._failed = False
        self._lock = threading.Lock()

    def _load(self) -> tuple[InjectionHead, Embedder] | None:
        embedder = shared_judge().embedder
        with self._lock:
            if self._head is None and not self._failed:
                try:
                    self._head = load_pinned("injection weights", self._path, self._sha256, InjectionHead.from_bytes,
                                             embedder)  # fmt: skip
                except ModelUnavailable as exc:
                    self._failed = True
                    log.warning("instruction-like text is judged by its shapes alone: %s", exc)
            return None if self._head is None else (self._head, embedder)

    def probability(self, texts: Sequence[str], known: Mapping[str, Vectors] | None = None) -> list[float] | None:
        """For each text, the highest probability over its windows; None without the model.
        `known` holds vectors this model already made of some texts as written (a record's
        statement as indexed): a one-window text whose skeleton is only its own wording, case
        and spacing aside (the model reads no case), is scored on that vector instead."""
        loaded = self._load()
        if loaded is None:
            return None
        head, embedder = loaded
        unique = list(dict.fromkeys(texts))
        if len(unique) < len(texts):  # the same text twice is judged once
            scores = self.probability(unique, known)
            return None if scores is None else [dict(zip(unique, scores, strict=True))[t] for t in texts]
        parts = [windows(t) if _wordy(t) else [] for t in texts]
        reuse = {i: known[t] for i, t in enumerate(texts) if known and t in known and _plain(t, parts[i])}
        flat = [w for i, ws in enumerate(parts) if i not in reuse for w in ws]
        try:
            fresh = np.asarray(embedder.embed(flat), dtype=np.float32) if flat else None
        except ModelUnavailable:
            return None
        p_fresh = head.probability(fresh) if fresh is not None else np.zeros(0, np.float32)
        out, k = [], 0
        for i, ws in enumerate(parts):
            if i in reuse:
                out.append(float(head.probability(np.asarray([reuse[i]], dtype=np.float32))[0]))
            elif ws:
                out.append(float(p_fresh[k : k + len(ws)].max()))
                k += len(ws)
            else:
                out.append(0.0)
        return out

    @property
    def threshold(self) -> float:
        loaded = self._load()
        return 1.0 if loaded is None else loaded[0].threshold


_SHARED = InjectionModel()


def instruction_like(texts: Sequence[str], model: InjectionModel | None = None) -> str | None:
    """Why the first text that reads as instructions to a model does, or None (shapes first)."""
    return instruction_like_each([texts], model)[0]


def instruction_like_each(
    groups: Sequence[Sequence[str]], model: InjectionModel | None = None, *, known: Mapping[str, Vectors] | None = None
) -> list[str | None]:
    """For each group of texts (a record's statement, context and attributes), why it reads as
    instructions to a model, or None: the shapes first, then one embedding call for the rest."""
    judge = model or _SHARED
    found: list[str | None] = []
    pending: list[tuple[int, list[str]]] = []
    for i, group in enumerate(groups):
        texts = [t for t in group if t and t.strip()]
        hit = next((h for t in texts if (h := find_injection(t)) is not None), None)
        found.append(hit)
        if hit is None and texts:
            pending.append((i, texts))
    flat = [t for _, texts in pending for t in texts]
    scores = judge.probability(flat, known) if flat else None
    if scores is None:
        return found
    threshold, k = judge.threshold, 0
    for i, texts in pending:
        best = max(scores[k : k + len(texts)])
        k += len(texts)
        if best >= threshold:
            found[i] = f"reads as instructions to a model (score {best:.2f})"
    return found
