"""The judge's network: one hidden layer shared by two softmax heads (act, project kind).

Plain numpy, so inference needs nothing beyond what recall already ships. `Weights` is what
training writes and loading reads; the forward pass is the same function in both.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Weights", "forward", "softmax"]

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Weights:
    w1: Array  # (features, hidden); hidden 0 means a linear model straight from the features
    b1: Array
    wa: Array  # act head
    ba: Array
    wk: Array  # kind head
    bk: Array
    acts: tuple[str, ...]
    kinds: tuple[str, ...]
    temperature_act: float = 1.0
    temperature_kind: float = 1.0
    embedder: str = ""

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        np.savez(
            buffer,
            w1=self.w1, b1=self.b1, wa=self.wa, ba=self.ba, wk=self.wk, bk=self.bk,
            acts=np.array(self.acts), kinds=np.array(self.kinds),
            temperatures=np.array([self.temperature_act, self.temperature_kind], dtype=np.float32),
            embedder=np.array(self.embedder),
        )  # fmt: skip
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> Weights:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            t = z["temperatures"]
            return cls(
                w1=z["w1"], b1=z["b1"], wa=z["wa"], ba=z["ba"], wk=z["wk"], bk=z["bk"],
                acts=tuple(str(a) for a in z["acts"]), kinds=tuple(str(k) for k in z["kinds"]),
                temperature_act=float(t[0]), temperature_kind=float(t[1]), embedder=str(z["embedder"]),
            )  # fmt: skip


def softmax(logits: Array, temperature: float = 1.0) -> Array:
    z = logits / np.float32(temperature)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: Array = e / e.sum(axis=1, keepdims=True)
    return out


def hidden(w: Weights, x: Array) -> Array:
    if w.w1.shape[1] == 0:
        return x
    h: Array = np.maximum(x @ w.w1 + w.b1, 0.0)
    return h


def forward(w: Weights, x: Array) -> tuple[Array, Array]:
    """Raw act and kind logits for a batch of feature rows."""
    h = hidden(w, x)
    return h @ w.wa + w.ba, h @ w.wk + w.bk
