"""Train the pair judge (`judge/pairs.py`) on labelled pairs (`data/pairs/*.jsonl`, SPEC.md there).

    .venv/bin/python -m forethought.judge.train_pairs data/pairs/pairs.jsonl [--final]

Five-fold cross-validation gives out-of-fold probabilities for every pair: the accuracy over the
four labels, and for "amends" against the rest the precision, recall and F1 at each threshold,
beside the relation stage's rule without a model (`text.amends.amends_by_rule`: related by overlap
or similarity, and a contrast word or a new number). The temperature is fitted on the out-of-fold
logits. With `--final` the model is refitted on every pair and written to
`judge/weights/pairs.npz`; put the printed sha256 in `PAIRS_SHA256` (`judge/pairs.py`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from forethought.judge.model import shared_judge
from forethought.judge.pairs import LABELS, PAIRS, PairWeights, pair_features
from forethought.text.amends import amends_by_rule

Array = npt.NDArray[np.float32]


def fit(
    x: Array, y: npt.NDArray[np.int64], *, l2: float = 1e-3, epochs: int = 400, lr: float = 0.05
) -> tuple[Array, Array, Array, Array]:
    """Multinomial logistic regression on standardised features (full-batch Adam)."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    n, d = z.shape
    w, b = np.zeros((d, len(LABELS)), dtype=np.float32), np.zeros(len(LABELS), dtype=np.float32)
    onehot = np.eye(len(LABELS), dtype=np.float32)[y]
    state = {k: np.zeros_like(v) for k, v in (("mw", w), ("vw", w), ("mb", b), ("vb", b))}
    for t in range(1, epochs + 1):
        logits = z @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        gw = z.T @ (p - onehot) / n + l2 * w
        gb = (p - onehot).mean(axis=0)
        for g, param, m, v in ((gw, w, "mw", "vw"), (gb, b, "mb", "vb")):
            state[m] = 0.9 * state[m] + 0.1 * g
            state[v] = 0.999 * state[v] + 0.001 * g * g
            param -= lr * (state[m] / (1 - 0.9**t)) / (np.sqrt(state[v] / (1 - 0.999**t)) + 1e-8)
    return w, b, mean.astype(np.float32), scale.astype(np.float32)


def _logits(params: tuple[Array, Array, Array, Array], x: Array) -> Array:
    w, b, mean, scale = params
    out: Array = (((x - mean) / scale) @ w + b).astype(np.float32)
    return out


def _softmax(z: Array, t: float) -> Array:
    z = z / t
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: Array = e / e.sum(axis=1, keepdims=True)
    return out


def _temperature(logits: Array, y: npt.NDArray[np.int64]) -> float:
    grid = np.linspace(0.5, 4.0, 36)
    nll = [float(-np.log(_softmax(logits, float(t))[np.arange(len(y)), y] + 1e-9).mean()) for t in grid]
    return float(grid[int(np.argmin(nll))])


def _binary(pred: npt.NDArray[np.bool_], truth: npt.NDArray[np.bool_]) -> dict[str, float]:
    tp = float((pred & truth).sum())
    p = tp / max(1.0, float(pred.sum()))
    r = tp / max(1.0, float(truth.sum()))
    return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 3)}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, nargs="+")
    parser.add_argument("--final", action="store_true")
    parser.add_argument("--out", type=Path, default=PAIRS)
    args = parser.parse_args(argv)
    rows = [json.loads(line) for path in args.corpus for line in path.read_text("utf-8").splitlines() if line.strip()]
    pairs = [(r["old"], r["new"]) for r in rows]
    y = np.array([LABELS.index(r["label"]) for r in rows], dtype=np.int64)
    embedder = shared_judge().embedder
    x = pair_features(embedder, pairs)
    folds = np.random.default_rng(11).permutation(len(rows)) % 5
    oof = np.zeros((len(rows), len(LABELS)), dtype=np.float32)
    for k in range(5):
        params = fit(x[folds != k], y[folds != k])
        oof[folds == k] = _logits(params, x[folds == k])
    temperature = _temperature(oof, y)
    probs = _softmax(oof, temperature)
    truth = y == LABELS.index("amends")
    cosine = x[:, 0]
    former = np.array([amends_by_rule(o, n, float(c)) for (o, n), c in zip(pairs, cosine, strict=True)])
    report = {
        "pairs": len(rows),
        "accuracy_4_labels": round(float((probs.argmax(axis=1) == y).mean()), 3),
        "temperature": temperature,
        "former_rule": _binary(former, truth),
        "amends_at": {f"{t:.2f}": _binary(probs[:, 0] >= t, truth) for t in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)},
    }
    print(json.dumps(report, indent=1))
    if args.final:
        w, b, mean, scale = fit(x, y)
        weights = PairWeights(w=w, b=b, labels=LABELS, temperature=temperature, embedder=embedder.name, mean=mean,
                              scale=scale)  # fmt: skip
        data = weights.to_bytes()
        args.out.write_bytes(data)
        print(f"wrote {args.out} ({len(data)} bytes), sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
