"""Train the sentence judge on a labelled corpus (JSON Lines, schema in data/judge/README.md).

    .venv/bin/python -m forethought.judge.train data/judge/*.jsonl --out src/forethought/judge/weights/judge.npz

A stratified split holds out a share of the corpus: the network is trained on the rest with Adam
until the held-out loss stops improving, its temperatures are fitted on the held-out part (so the
probabilities are calibrated), and the held-out figures are printed next to a linear model's.
With `--final` it is then retrained on everything for the same number of epochs. The file's
sha256 is printed: it is pinned in `judge/model.py`, and a file that does not match is refused.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from forethought.domain import Role
from forethought.embed.base import Embedder
from forethought.embed.onnx_minilm import MiniLMEmbedder
from forethought.judge.acts import ACTS, PROJECT_KINDS
from forethought.judge.features import features
from forethought.judge.network import Array, Weights, forward, softmax

__all__ = ["Corpus", "Example", "evaluate", "fit", "load_corpus", "main"]

_SPEAKERS = {"user": Role.USER, "assistant": Role.AGENT, "agent": Role.AGENT}


@dataclass(frozen=True)
class Example:
    text: str
    speaker: Role
    act: int
    kind: int  # -1 when the sentence has no project kind


@dataclass
class Corpus:
    examples: list[Example]
    x: Array

    @property
    def acts(self) -> npt.NDArray[np.int64]:
        return np.array([e.act for e in self.examples], dtype=np.int64)

    @property
    def kinds(self) -> npt.NDArray[np.int64]:
        return np.array([e.kind for e in self.examples], dtype=np.int64)

    def subset(self, index: npt.NDArray[np.int64]) -> Corpus:
        return Corpus([self.examples[i] for i in index], self.x[index])


def load_corpus(paths: Sequence[Path], embedder: Embedder) -> Corpus:
    acts = {a.value: i for i, a in enumerate(ACTS)}
    kinds = {k: i for i, k in enumerate(PROJECT_KINDS)}
    examples: list[Example] = []
    seen: set[str] = set()
    for path in paths:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            text = str(row["text"]).strip()
            if not text or text.casefold() in seen:
                continue
            if row["act"] not in acts or row.get("speaker") not in _SPEAKERS:
                raise ValueError(f"{path}:{number}: unknown act or speaker")
            seen.add(text.casefold())
            kind = kinds.get(row.get("kind") or "", -1)
            examples.append(Example(text, _SPEAKERS[row["speaker"]], acts[row["act"]], kind))
    x = features(embedder, [e.text for e in examples], [e.speaker for e in examples])
    return Corpus(examples, x)


def split(corpus: Corpus, held_out: float, seed: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Stratified by act, so every act is in both parts."""
    rng = np.random.default_rng(seed)
    train: list[int] = []
    test: list[int] = []
    for act in np.unique(corpus.acts):
        idx = np.flatnonzero(corpus.acts == act)
        rng.shuffle(idx)
        cut = max(1, round(len(idx) * held_out))
        test += idx[:cut].tolist()
        train += idx[cut:].tolist()
    return np.array(sorted(train), dtype=np.int64), np.array(sorted(test), dtype=np.int64)


def _init(n_in: int, hidden: int, rng: np.random.Generator) -> dict[str, Array]:
    def glorot(a: int, b: int) -> Array:
        out: Array = (rng.standard_normal((a, b)) * np.sqrt(2.0 / (a + b))).astype(np.float32)
        return out

    width = hidden if hidden else n_in
    return {
        "w1": glorot(n_in, hidden) if hidden else np.zeros((n_in, 0), np.float32),
        "b1": np.zeros(hidden, np.float32),
        "wa": glorot(width, len(ACTS)),
        "ba": np.zeros(len(ACTS), np.float32),
        "wk": glorot(width, len(PROJECT_KINDS)),
        "bk": np.zeros(len(PROJECT_KINDS), np.float32),
    }


def _weights(p: dict[str, Array], embedder: str, ta: float = 1.0, tk: float = 1.0) -> Weights:
    return Weights(**{k: v.copy() for k, v in p.items()}, acts=tuple(a.value for a in ACTS), kinds=PROJECT_KINDS,
                   temperature_act=ta, temperature_kind=tk, embedder=embedder)  # fmt: skip


def _loss_and_grads(p: dict[str, Array], c: Corpus, kind_weight: float, l2: float) -> tuple[float, dict[str, Array]]:
    x, acts, kinds = c.x, c.acts, c.kinds
    n = len(acts)
    pre = x @ p["w1"] + p["b1"] if p["w1"].shape[1] else x
    h = np.maximum(pre, 0.0) if p["w1"].shape[1] else x
    pa = softmax(h @ p["wa"] + p["ba"])
    pk = softmax(h @ p["wk"] + p["bk"])
    has_kind = kinds >= 0
    m = max(1, int(has_kind.sum()))
    loss = -np.log(pa[np.arange(n), acts] + 1e-9).mean()
    loss += kind_weight * -np.log(pk[has_kind, kinds[has_kind]] + 1e-9).sum() / m
    da = pa.copy()
    da[np.arange(n), acts] -= 1.0
    da /= n
    dk = np.zeros_like(pk)
    dk[has_kind] = pk[has_kind]
    dk[np.flatnonzero(has_kind), kinds[has_kind]] -= 1.0
    dk *= kind_weight / m
    g = {"wa": h.T @ da, "ba": da.sum(0), "wk": h.T @ dk, "bk": dk.sum(0)}
    if p["w1"].shape[1]:
        dh = (da @ p["wa"].T + dk @ p["wk"].T) * (pre > 0)
        g["w1"], g["b1"] = x.T @ dh, dh.sum(0)
    else:
        g["w1"], g["b1"] = np.zeros_like(p["w1"]), np.zeros_like(p["b1"])
    for name in ("w1", "wa", "wk"):
        loss += 0.5 * l2 * float((p[name] ** 2).sum())
        g[name] = g[name] + l2 * p[name]
    return float(loss), g


def _nll(w: Weights, c: Corpus) -> float:
    la, _ = forward(w, c.x)
    pa = softmax(la, w.temperature_act)
    return float(-np.log(pa[np.arange(len(c.acts)), c.acts] + 1e-9).mean())


def fit(train: Corpus, held: Corpus | None, *, hidden: int, epochs: int, embedder: str, seed: int = 7,
        lr: float = 3e-3, l2: float = 1e-4, kind_weight: float = 0.5) -> tuple[Weights, int]:  # fmt: skip
    """Full-batch Adam; with a held-out part, the weights of the epoch with its lowest loss."""
    rng = np.random.default_rng(seed)
    p = _init(train.x.shape[1], hidden, rng)
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(v) for k, v in p.items()}
    best, best_epoch, best_p = float("inf"), epochs, p
    for epoch in range(1, epochs + 1):
        _, g = _loss_and_grads(p, train, kind_weight, l2)
        for k in p:
            m[k] = 0.9 * m[k] + 0.1 * g[k]
            v[k] = 0.999 * v[k] + 0.001 * g[k] ** 2
            p[k] = (p[k] - lr * (m[k] / (1 - 0.9**epoch)) / (np.sqrt(v[k] / (1 - 0.999**epoch)) + 1e-8)).astype(
                np.float32
            )
        if held is not None and epoch % 10 == 0:
            loss = _nll(_weights(p, embedder), held)
            if loss < best:
                best, best_epoch, best_p = loss, epoch, {k: x.copy() for k, x in p.items()}
    return _weights(best_p if held is not None else p, embedder), best_epoch


def calibrate(w: Weights, held: Corpus) -> Weights:
    """Temperatures that minimise the held-out negative log-likelihood (grid search)."""
    la, lk = forward(w, held.x)
    grid = np.exp(np.linspace(np.log(0.3), np.log(5.0), 60))

    def nll(logits: Array, labels: npt.NDArray[np.int64], t: float) -> float:
        prob = softmax(logits, t)
        return float(-np.log(prob[np.arange(len(labels)), labels] + 1e-9).mean())

    ta = min(grid, key=lambda t: nll(la, held.acts, float(t)))
    has = held.kinds >= 0
    tk = min(grid, key=lambda t: nll(lk[has], held.kinds[has], float(t))) if has.any() else 1.0
    return Weights(**{**w.__dict__, "temperature_act": float(ta), "temperature_kind": float(tk)})


def evaluate(w: Weights, c: Corpus) -> dict[str, Any]:
    """Held-out accuracy, macro F1 over acts, kind accuracy, and expected calibration error."""
    la, lk = forward(w, c.x)
    pa = softmax(la, w.temperature_act)
    pred = pa.argmax(1)
    acts = c.acts
    f1s = []
    for a in range(len(w.acts)):
        tp = int(((pred == a) & (acts == a)).sum())
        fp, fn = int(((pred == a) & (acts != a)).sum()), int(((pred != a) & (acts == a)).sum())
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    has = c.kinds >= 0
    kind_acc = float((lk[has].argmax(1) == c.kinds[has]).mean()) if has.any() else None
    conf = pa.max(1)
    bins = np.minimum((conf * 10).astype(int), 9)
    ece = sum(abs(float((pred[bins == b] == acts[bins == b]).mean()) - float(conf[bins == b].mean()))
              * float((bins == b).mean()) for b in range(10) if (bins == b).any())  # fmt: skip
    confusions = Counter((w.acts[a], w.acts[p]) for a, p in zip(acts, pred, strict=True) if a != p)
    return {
        "n": len(acts),
        "accuracy": round(float((pred == acts).mean()), 3),
        "macro_f1": round(float(np.mean(f1s)), 3),
        "f1": {w.acts[a]: round(f, 3) for a, f in enumerate(f1s)},
        "kind_accuracy": None if kind_acc is None else round(kind_acc, 3),
        "ece": round(float(ece), 3),
        "top_confusions": [f"{a}->{p}: {n}" for (a, p), n in confusions.most_common(8)],
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="+", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=600)
    parser.add_argument("--held-out", type=float, default=0.2)
    parser.add_argument("--final", action="store_true", help="retrain on the whole corpus before writing")
    args = parser.parse_args(argv)
    embedder = MiniLMEmbedder()
    corpus = load_corpus(args.corpus, embedder)
    train_i, held_i = split(corpus, args.held_out, seed=11)
    train, held = corpus.subset(train_i), corpus.subset(held_i)
    print(f"corpus: {len(corpus.examples)} sentences, {Counter(ACTS[e.act].value for e in corpus.examples)}")
    linear, _ = fit(train, held, hidden=0, epochs=args.epochs, embedder=embedder.name)
    print("linear (held out):", json.dumps(evaluate(calibrate(linear, held), held)))
    weights, best_epoch = fit(train, held, hidden=args.hidden, epochs=args.epochs, embedder=embedder.name)
    weights = calibrate(weights, held)
    print(f"network, hidden {args.hidden}, best epoch {best_epoch} (held out):", json.dumps(evaluate(weights, held)))
    if args.final:
        final, _ = fit(corpus, None, hidden=args.hidden, epochs=best_epoch, embedder=embedder.name)
        weights = Weights(**{**final.__dict__, "temperature_act": weights.temperature_act,
                             "temperature_kind": weights.temperature_kind})  # fmt: skip
    if args.out:
        data = weights.to_bytes()
        args.out.write_bytes(data)
        print(f"wrote {args.out} ({len(data)} bytes), sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
