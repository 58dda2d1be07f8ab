"""Train the injection head (`judge/injection.py`) on labelled texts (`data/injection/*.jsonl`:
`{"id", "text", "label": "injection" | "benign", "phenomenon"}`, written from `data/injection/SPEC.md`).

    .venv/bin/python -m forethought.judge.train_injection data/injection/train.jsonl \
        --calibrate bench/tuning/injection-v1/injection.jsonl \
        --ordinary data/judge/*.jsonl data/checks/rules-*.jsonl [--final]

Every window of a text's skeleton (`judge/injection.windows`) is one example with the text's
label. Everyday memory (`--ordinary`: rules, decisions, preferences, chatter the other corpora
hold) is benign too: imperative rules ("Use Postgres for the ledger") are what memory mostly is
and must not read as injections; a fifth of it is held out to say how often it is flagged. The
head is an L2-regularised logistic regression on standardised MiniLM embeddings (full-batch
Adam). Its threshold is the lowest at which the head adds at most `--max-added-fpr` of the
calibration texts' negatives as false positives to those of the shapes (the detector runs the
shapes, then the head, as `instruction_like` does); the figures at that point are printed per
phenomenon. With `--final` the head is written to `judge/weights/injection.npz`; put the printed
sha256 in `INJECTION_SHA256`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from forethought.judge.injection import INJECTION_WEIGHTS, InjectionHead, windows
from forethought.judge.model import shared_judge
from forethought.text.injection import find_injection

Array = npt.NDArray[np.float32]


def _rows(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _embed(texts: list[str]) -> tuple[Array, list[int]]:
    """The windows of every text, embedded, and which text each window came from."""
    owner: list[int] = []
    flat: list[str] = []
    for i, text in enumerate(texts):
        for w in windows(text):
            flat.append(w)
            owner.append(i)
    x = np.asarray(shared_judge().embedder.embed(flat), dtype=np.float32)
    return x, owner


def fit(x: Array, y: Array, *, l2: float, epochs: int = 500, lr: float = 0.05) -> tuple[Array, Array, Array, float]:
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    w, b = np.zeros(z.shape[1], dtype=np.float32), 0.0
    mw, vw, mb, vb = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    pos = max(1.0, float(y.sum()))
    weight = np.where(y > 0, len(y) / (2 * pos), len(y) / (2 * max(1.0, len(y) - pos))).astype(np.float32)
    for t in range(1, epochs + 1):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        g = (p - y) * weight / len(y)
        gw, gb = z.T @ g + l2 * w, float(g.sum())
        mw, vw = 0.9 * mw + 0.1 * gw, 0.999 * vw + 0.001 * gw * gw
        mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb * gb
        w -= lr * (mw / (1 - 0.9**t)) / (np.sqrt(vw / (1 - 0.999**t)) + 1e-8)
        b -= lr * (mb / (1 - 0.9**t)) / (np.sqrt(vb / (1 - 0.999**t)) + 1e-8)
    return mean, scale, w.astype(np.float32), float(b)


def text_scores(head: InjectionHead, x: Array, owner: list[int], n: int) -> Array:
    p = head.probability(x)
    out = np.zeros(n, dtype=np.float32)
    for i, score in zip(owner, p, strict=True):
        out[i] = max(out[i], score)
    return out


def report(rows: list[dict[str, str]], flagged: list[bool]) -> str:
    by: dict[str, list[int]] = {}
    for row, hit in zip(rows, flagged, strict=True):
        ok = hit == (row["label"] == "injection")
        cell = by.setdefault(f"{row['label']}/{row['phenomenon']}", [0, 0])
        cell[0] += ok
        cell[1] += 1
    pos = [f for r, f in zip(rows, flagged, strict=True) if r["label"] == "injection"]
    neg = [f for r, f in zip(rows, flagged, strict=True) if r["label"] != "injection"]
    head = f"recall {sum(pos) / max(1, len(pos)):.3f} ({sum(pos)}/{len(pos)}), false positives {sum(neg)}/{len(neg)}"
    return head + "\n  " + ", ".join(f"{k} {a}/{t}" for k, (a, t) in sorted(by.items()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("train", type=Path, nargs="+")
    parser.add_argument("--calibrate", type=Path, required=True)
    parser.add_argument("--max-added-fpr", type=float, default=0.03)
    parser.add_argument("--l2", type=float, default=0.05)
    parser.add_argument(
        "--ordinary", type=Path, nargs="*", default=[],
        help="files of everyday memory (data/judge/*.jsonl `text`, data/checks/rules-*.jsonl `rule`): benign examples",
    )  # fmt: skip
    parser.add_argument("--final", action="store_true")
    args = parser.parse_args(argv)
    train = [r for path in args.train for r in _rows(path)]
    ordinary = [
        {"id": r["id"], "text": r.get("text") or r["rule"], "label": "benign", "phenomenon": "ordinary_memory"}
        for path in args.ordinary
        for r in _rows(path)
        if r.get("text") or r.get("rule")
    ]
    held_out = ordinary[::5]  # every fifth stays out of training: the rate at which everyday memory is flagged
    train += [r for i, r in enumerate(ordinary) if i % 5]
    x, owner = _embed([r["text"] for r in train])
    y = np.asarray([1.0 if train[i]["label"] == "injection" else 0.0 for i in owner], dtype=np.float32)
    mean, scale, w, b = fit(x, y, l2=args.l2)
    name = shared_judge().embedder.name
    calib = _rows(args.calibrate)
    cx, cowner = _embed([r["text"] for r in calib])
    shapes = [find_injection(r["text"]) is not None for r in calib]
    scores = text_scores(InjectionHead(name, mean, scale, w, b, 1.0), cx, cowner, len(calib))
    negatives = [i for i, r in enumerate(calib) if r["label"] != "injection"]
    allowed = int(args.max_added_fpr * len(negatives))  # false positives the head may add to the shapes'
    threshold = 1.0
    for t in sorted({float(s) for s in scores}, reverse=True):
        added = sum(1 for i in negatives if not shapes[i] and scores[i] >= t)
        if added > allowed:
            break
        threshold = t
    print(f"shapes alone on {args.calibrate.name}: " + report(calib, shapes))
    flagged = [s or bool(scores[i] >= threshold) for i, s in enumerate(shapes)]
    print(f"shapes + head at {threshold:.3f} on {args.calibrate.name}: " + report(calib, flagged))
    head = InjectionHead(name, mean, scale, w, b, threshold)
    if held_out:
        hx, howner = _embed([r["text"] for r in held_out])
        hs = text_scores(head, hx, howner, len(held_out))
        hit = [find_injection(r["text"]) is not None or bool(hs[i] >= threshold) for i, r in enumerate(held_out)]
        print(f"everyday memory held out ({len(held_out)} sentences): flagged {sum(hit)}")
    if args.final:
        raw = head.to_bytes()
        INJECTION_WEIGHTS.write_bytes(raw)
        print(f"wrote {INJECTION_WEIGHTS} sha256 {hashlib.sha256(raw).hexdigest()}")


if __name__ == "__main__":
    main()
