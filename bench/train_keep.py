"""Fit the project extractor's keep model on the tuning sets' candidates and pick its threshold.

    .venv/bin/python -m bench.train_keep [--sets bench/tuning/project-v1 ...] \
        [--out src/forethought/judge/weights/keep-project.json]

Each labelled conversation is read by the extractor up to the judge
(`apps.project.extract.judged`: the person's durable sentences, before the keep model), and every
candidate becomes a row of `forethought.judge.keep.KEEP_FEATURES`, labelled 1 when one of its
quotes overlaps a labelled rule's quote (the bench's match, `quality_common.overlaps`) and 0
otherwise. A logistic regression (L2 on standardised features, full-batch gradient descent,
unweighted classes so the probability stays calibrated) is fitted. The threshold is the highest one at which, over
leave-one-set-out folds, candidates keep at least `--keep-rules` of the rules they found before;
the folds' precision and rule share are printed for every threshold tried. Prints the file's
sha256: pin it in `apps/project/extract.py` (`KEEP`).

The shipped judge was trained on these sets' labelled quotes too (`data/judge/t.jsonl`), so on them
it is surer of every rule than it can be on anyone else's sentences, and a model fitted on its
probabilities there would trust them too much. `--judge` reads the sets with a judge trained
without those quotes (`python -m forethought.judge.train data/judge/[a-h].jsonl --final --out
J.npz`), whose probabilities on them are as out-of-sample as the shipped judge's are on new data.
"""

from __future__ import annotations

import argparse
import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from bench.quality_common import overlaps, read_jsonl
from forethought.apps.project.extract import judged
from forethought.domain import Session
from forethought.judge import shared_judge
from forethought.judge.keep import KEEP_FEATURES, KeepModel, feature_row, is_conversation
from forethought.judge.model import SentenceJudge
from forethought.pipeline.transcripts import parse_transcript

ROOT = Path(__file__).resolve().parent
SETS = tuple(ROOT / "tuning" / f"project-v{n}" for n in (1, 2, 3, 4))
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)


@dataclass
class Rows:
    """One set's candidates: features, whether each matched a rule, and which rules."""

    name: str
    x: list[list[float]] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    rules: list[set[str]] = field(default_factory=list)


def collect(folder: Path, judge: SentenceJudge) -> Rows:
    out = Rows(folder.name)
    for label in read_jsonl(folder / "labels.jsonl"):
        turns = parse_transcript((folder / label["file"]).read_bytes(), human=label.get("human"))
        session = Session(id=label["id"], space_id="keep", title=label["id"], created_at=datetime.now(UTC),
                          turns=tuple(turns))  # fmt: skip
        if not is_conversation(session):
            continue
        for found in judged(session, judge):
            quotes = [e.quote for e in found.candidate.evidence]
            hit = {f"{label['id']}:{r['id']}" for r in label["rules"] if any(overlaps(q, r["quote"]) for q in quotes)}
            out.x.append(feature_row(found.judgement, found.where))
            out.y.append(1.0 if hit else 0.0)
            out.rules.append(hit)
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 3000, lr: float = 0.1) -> tuple[np.ndarray, float]:
    """Weights and bias over the raw features (standardisation folded in)."""
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = (x - mu) / sd
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= lr * (z.T @ (p - y) / len(y) + l2 * w / len(y))
        b -= lr * float((p - y).mean())
    return w / sd, b - float(np.dot(w, mu / sd))


def scores(rows: Rows, w: np.ndarray, b: float) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-(np.asarray(rows.x) @ w + b))))


def figures(folds: list[tuple[Rows, np.ndarray]], threshold: float) -> dict[str, float]:
    """Precision of the kept candidates and the share of found rules still found, over folds."""
    kept = right = 0
    found: set[str] = set()
    still: set[str] = set()
    for rows, p in folds:
        for y, rules, s in zip(rows.y, rows.rules, p, strict=True):
            found |= rules
            if s >= threshold:
                kept += 1
                right += int(y)
                still |= rules
    before = sum(sum(r.y) for r, _ in folds) / max(1, sum(len(r.y) for r, _ in folds))
    return {"precision": right / max(1, kept), "rules": len(still) / max(1, len(found)), "before": before}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=Path, nargs="+", default=list(SETS))
    parser.add_argument("--keep-rules", type=float, default=0.95, help="share of found rules to keep, held out")
    parser.add_argument("--judge", type=Path, help="judge weights trained without the sets' own quotes")
    parser.add_argument("--judge-sha256", help="that file's sha256")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    judge = shared_judge()
    if args.judge:
        judge = SentenceJudge(path=args.judge, sha256=args.judge_sha256 or "")
    sets = [collect(folder, judge) for folder in args.sets]
    folds = []
    for held in sets:
        train = [r for r in sets if r is not held]
        w, b = fit(np.vstack([np.asarray(r.x) for r in train]), np.concatenate([np.asarray(r.y) for r in train]))
        folds.append((held, scores(held, w, b)))
    print(f"held-out precision before the keep model: {figures(folds, 0.0)['before']:.3f}")
    print("threshold | held-out precision | rules still found")
    chosen = THRESHOLDS[0]
    for t in THRESHOLDS:
        row = figures(folds, t)
        print(f"{t:.2f} | {row['precision']:.3f} | {row['rules']:.3f}")
        if row["rules"] >= args.keep_rules:
            chosen = t
    x = np.vstack([np.asarray(r.x) for r in sets])
    y = np.concatenate([np.asarray(r.y) for r in sets])
    w, b = fit(x, y)
    print(f"threshold {chosen}; weights:", dict(zip(KEEP_FEATURES, np.round(w, 3).tolist(), strict=True)),
          "bias", round(b, 3))  # fmt: skip
    if args.out:
        model = KeepModel(KEEP_FEATURES, tuple(float(v) for v in w), float(b), chosen, shared_judge().embedder.name)
        data = model.to_json().encode("utf-8")
        args.out.write_bytes(data)
        print(f"wrote {args.out}, sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
