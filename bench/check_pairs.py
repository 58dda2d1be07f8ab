"""A learned line-to-rule matcher, measured against the shipped check on the rule-vs-line corpus.

    .venv/bin/python -m bench.check_pairs    # writes bench/results/check_pairs.json (--out elsewhere)

The question: can "does this line break this rule?" be learned over the shipped MiniLM embeddings,
so that the check finds violations no form read off the rule's words names? Each (rule, line) pair
of `data/checks/` (SPEC.md there) is a row; the label is 1 for `violates`, 0 for `complies` and
`unrelated`. Every line is also paired with three other rules drawn at random, labelled 0: in a real
draft nearly every (line, rule) pair is unrelated, so a matcher's false-flag rate on such pairs
decides whether it can run at all. Two feature sets, each a logistic regression (plain numpy,
L2, standardised features), scored out of fold over five folds split by rule (a rule's lines and
its cross pairs are never in the fold that trains on them):
- `low`: cosine of rule and line (with and without the path), word overlap both ways, overlap
  with the rule's negated clauses and with the rest, comment, digits in line and rule, a negation
  in the rule, and the line's best cosine to a negated clause and to a positive one;
- `low+product`: those plus the element-wise product of the two embeddings (384 more).
Printed: precision and recall over `violates` lines and the false-flag rate on complies, unrelated
and cross pairs, at each threshold; beside them the shipped check's figures from `bench.check_lines`
(`bench/results/check_lines.json`).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bench.check_lines import CORPUS
from bench.common import write_json
from bench.quality_common import ratio, read_jsonl
from forethought.embed.onnx_minilm import MiniLMEmbedder

Array = npt.NDArray[np.float32]
RESULTS = Path(__file__).resolve().parent / "results"
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
FOLDS = 5
_NEG = re.compile(r"\b(?:no|never|not|don't|do not|avoid|instead of|rather than|banned|forbidden|must not|stop"
                  r"|without|nothing|none)\b", re.I)  # fmt: skip
_CLAUSE = re.compile(r"[;:]\s|\.\s|,\s(?:and\s|but\s)?|\bbut\b|\binstead\b|\brather than\b|\(|\)")
_STOP_WORDS = (
    "the a an in of to for and or is are be we our all any with on at by from as it its this that must should never no"
    " not only use uses used do does don't every each via into than"
)
_STOP = frozenset(_STOP_WORDS.split())


def _words(text: str) -> set[str]:
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP and len(w) > 1}


def _clauses(rule: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(rule) if c and len(c.strip()) > 3]


def _low(
    rule: str, line: dict[str, str], u: Array, v: Array, vp: Array, clauses: list[tuple[Array, bool]]
) -> list[float]:
    rw, lw = _words(rule), _words(f"{line['path']} {line['text']}")
    negated = set().union(*[_words(c) for c in _clauses(rule) if _NEG.search(c)])
    rest = rw - negated
    text = line["text"].strip()
    digits_l, digits_r = float(bool(re.search(r"\d", text))), float(bool(re.search(r"\d", rule)))
    to_neg = max((float(c @ vp) for c, n in clauses if n), default=0.0)
    to_pos = max((float(c @ vp) for c, n in clauses if not n), default=0.0)
    return [float(u @ v), float(u @ vp), len(rw & lw) / (len(lw) + 1), len(rw & lw) / (len(rw) + 1),
            len(negated & lw) / (len(negated) + 1), float(bool(negated & lw)), len(rest & lw) / (len(rest) + 1),
            float(bool(rest & lw)), float(bool(re.match(r"^(?:#|//|--|/\*|\*)", text))), digits_l, digits_r,
            digits_l * digits_r, float(bool(_NEG.search(rule))), to_neg, to_pos, to_neg - to_pos,
            float(any(n for _, n in clauses))]  # fmt: skip


def _fit(x: Array, y: Array, *, l2: float = 1e-2, epochs: int = 500, lr: float = 0.05) -> Any:
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    w, b = np.zeros(z.shape[1], dtype=np.float32), 0.0
    m, s, mb, sb = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    for t in range(1, epochs + 1):
        g = 1 / (1 + np.exp(-(z @ w + b))) - y
        gw, gb = z.T @ g / len(y) + l2 * w, float(g.mean())
        m, s = 0.9 * m + 0.1 * gw, 0.999 * s + 0.001 * gw * gw
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(s / (1 - 0.999**t)) + 1e-8)
        mb, sb = 0.9 * mb + 0.1 * gb, 0.999 * sb + 0.001 * gb * gb
        b -= lr * (mb / (1 - 0.9**t)) / (np.sqrt(sb / (1 - 0.999**t)) + 1e-8)
    return lambda q: 1 / (1 + np.exp(-(((q - mean) / scale) @ w + b)))


def score(paths: list[Path]) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    rules = [rule for path in paths for rule in read_jsonl(path)]
    lines = [(ri, line) for ri, rule in enumerate(rules) for line in rule["lines"]]
    embedder = MiniLMEmbedder()
    u = embedder.embed([r["rule"] for r in rules])
    v = embedder.embed([line["text"] for _, line in lines])
    vp = embedder.embed([f"{line['path']} {line['text']}" for _, line in lines])
    parts = [(ri, c, bool(_NEG.search(c))) for ri, r in enumerate(rules) for c in _clauses(r["rule"])]
    part_vectors = embedder.embed([c for _, c, _ in parts])
    clauses: dict[int, list[tuple[Array, bool]]] = {}
    for (ri, _, negated), vector in zip(parts, part_vectors, strict=True):
        clauses.setdefault(ri, []).append((vector, negated))
    own = [(ri, li) for li, (ri, _) in enumerate(lines)]
    cross = [
        (int(o), li) for li, (ri, _) in enumerate(lines) for o in rng.choice(len(rules), 3, replace=False) if o != ri
    ]
    low = {p: _low(rules[p[0]]["rule"], lines[p[1]][1], u[p[0]], v[p[1]], vp[p[1]], clauses.get(p[0], []))
           for p in own + cross}  # fmt: skip
    labels = np.array([line["label"] for _, line in lines])
    y = (labels == "violates").astype(np.float32)
    fold = rng.permutation(len(rules)) % FOLDS
    out: dict[str, Any] = {"rules": len(rules), "lines": len(lines), "cross_pairs": len(cross)}
    for name, with_product in (("low", False), ("low+product", True)):

        def rows(pairs: list[tuple[int, int]], product: bool = with_product) -> Array:
            return np.array([low[p] + (list(u[p[0]] * vp[p[1]]) if product else []) for p in pairs], dtype=np.float32)

        x_own, x_cross = rows(own), rows(cross)
        oof, oof_cross = np.zeros(len(own)), np.full(len(cross), np.nan)
        for f in range(FOLDS):
            train = np.array([fold[ri] != f for ri, _ in own])
            train_cross = np.array([fold[o] != f and fold[lines[li][0]] != f for o, li in cross])
            test_cross = np.array([fold[o] == f and fold[lines[li][0]] == f for o, li in cross])
            model = _fit(np.concatenate([x_own[train], x_cross[train_cross]]),
                         np.concatenate([y[train], np.zeros(int(train_cross.sum()), dtype=np.float32)]))  # fmt: skip
            oof[~train] = model(x_own[~train])
            oof_cross[test_cross] = model(x_cross[test_cross])
        scored_cross = oof_cross[~np.isnan(oof_cross)]
        table = []
        for threshold in THRESHOLDS:
            flagged = oof >= threshold
            hits = int((flagged & (y > 0)).sum())

            def flags(label: str, flagged: npt.NDArray[np.bool_] = flagged) -> float | None:
                return ratio(int((flagged & (labels == label)).sum()), int((labels == label).sum()))

            table.append({
                "threshold": threshold, "precision": ratio(hits, int(flagged.sum())),
                "recall": ratio(hits, int(y.sum())), "flags_complies": flags("complies"),
                "flags_unrelated": flags("unrelated"),
                "flags_cross": round(float((scored_cross >= threshold).mean()), 4),
            })  # fmt: skip
        out[name] = table
    shipped = RESULTS / "check_lines.json"
    if shipped.exists():
        kept = json.loads(shipped.read_text("utf-8"))
        out["shipped_check"] = {k: kept[k] for k in ("precision", "recall", "false_flag_rate")}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=RESULTS / "check_pairs.json")
    result = score(sorted(CORPUS.glob("rules-*.jsonl")))
    write_json(parser.parse_args().out, result)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
