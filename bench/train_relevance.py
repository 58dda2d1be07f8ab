"""Fit the brief's relevance model on labelled tuning tasks and pick its threshold.

    .venv/bin/python -m bench.train_relevance [--sets bench/tuning/project-v1] \
        [--out src/forethought/judge/weights/relevance-project.json]

Each set's labelled rules are stored as records (as `bench.quality_project` does), each task is
recalled as the brief recalls it (top 20), and every recalled rule becomes a row of
`forethought.pipeline.relevance.FEATURES`, labelled 1 when the task must apply it and 0 when it
must not (rules it may apply are left out). A logistic regression (L2, balanced classes,
full-batch gradient descent) is fitted. The operating point (a threshold, and a margin below the
task's best record) is the one that, over leave-one-project-out folds, maximises recall of
must-apply rules minus the share of tasks carrying a must-not rule. Prints the folds' figures and
the file's sha256 (pin it in the app's `relevance`, e.g. `ProjectApp.relevance`).
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.quality_common import read_jsonl
from bench.quality_project import store_rules
from forethought import Forethought
from forethought.pipeline.brief import query_for
from forethought.pipeline.relevance import FEATURES, RelevanceModel, feature_rows, judge_embedder

ROOT = Path(__file__).resolve().parent


@dataclass
class TaskRows:
    project: str
    x: np.ndarray
    y: np.ndarray  # 1 must, 0 must-not, -1 may (left out of fitting)
    must: int  # must-apply rules of the task, recalled or not


def collect(folder: Path) -> list[TaskRows]:
    out: list[TaskRows] = []
    embedder = judge_embedder()
    with tempfile.TemporaryDirectory() as tmp, Forethought.open(Path(tmp) / "r.db", embedder="minilm") as memory:
        stored = store_rules(memory, folder)
        for task in read_jsonl(folder / "tasks.jsonl"):
            scope = memory.scope("project", task["project"])
            hits = [h for h in memory.recall(scope, query_for(task["task"]), k=20).hits if h.record.is_current]
            records = [h.record for h in hits]
            x = feature_rows(task["task"], task.get("file_paths") or [], records, scope.app, embedder)
            ids = [stored.rule_of.get(r.id, "?") for r in records]
            y = np.array([1 if i in task["must_apply"] else 0 if i in task["must_not_apply"] else -1 for i in ids])
            out.append(TaskRows(f"{folder.name}:{task['project']}", x, y, len(task["must_apply"])))
    return out


def collect_pairs(path: Path) -> list[TaskRows]:
    """Rows from written (task, rule, must|not) pairs: each project's rules stored as records, each
    task recalled as the brief recalls it; recalled rules the pairs do not label are left out."""
    from forethought.apps.project.areas import infer_area

    pairs = read_jsonl(path)
    out: list[TaskRows] = []
    embedder = judge_embedder()
    with tempfile.TemporaryDirectory() as tmp, Forethought.open(Path(tmp) / "p.db", embedder="minilm") as memory:
        ids: dict[tuple[str, str], str] = {}
        for pair in pairs:
            key = (pair["project"], pair["rule"])
            if key not in ids:
                area = infer_area(pair["rule"])
                scope = memory.scope("project", pair["project"])
                ids[key] = memory.retain(scope, pair["rule"], kind="decision", tags=[f"area:{area}"],
                                         attributes={"what": pair["rule"], "area": area}).record.id  # fmt: skip
        tasks: dict[tuple[str, str], dict[str, Any]] = {}
        for pair in pairs:
            task = tasks.setdefault((pair["project"], pair["task"]), {"paths": pair.get("file_paths") or [], "y": {}})
            task["y"][ids[(pair["project"], pair["rule"])]] = 1 if pair["label"] == "must" else 0
        for (project, text), task in tasks.items():
            scope = memory.scope("project", project)
            records = [h.record for h in memory.recall(scope, query_for(text), k=20).hits if h.record.is_current]
            x = feature_rows(text, task["paths"], records, scope.app, embedder)
            y = np.array([task["y"].get(r.id, -1) for r in records])
            must = sum(1 for v in task["y"].values() if v == 1)
            out.append(TaskRows(f"pairs:{project}", x, y, must))
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float = 0.01, steps: int = 3000, lr: float = 0.5) -> tuple[np.ndarray, float]:
    w, b = np.zeros(x.shape[1]), 0.0
    pos = max(1.0, float(y.sum()))
    weight = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * max(1.0, len(y) - pos)))  # balanced classes
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        g = (p - y) * weight
        w -= lr * (x.T @ g / len(y) + l2 * w)
        b -= lr * float(g.mean())
    return w, b


def briefs(tasks: list[TaskRows], w: np.ndarray, b: float, threshold: float, margin: float = 1.0) -> dict[str, float]:
    briefed = relevant = must = found = forbidden = 0
    for t in tasks:
        p = 1 / (1 + np.exp(-(t.x @ w + b))) if len(t.x) else np.zeros(0)
        top = float(p.max()) if len(p) else 0.0
        chosen = [i for i in np.argsort(-p) if p[i] >= threshold and p[i] >= top - margin][:5]
        briefed += len(chosen)
        relevant += sum(t.y[i] != 0 for i in chosen)
        found += sum(t.y[i] == 1 for i in chosen)
        must += t.must
        forbidden += any(t.y[i] == 0 for i in chosen)
    n = len(tasks)
    return {"precision": relevant / max(briefed, 1), "recall": found / max(must, 1), "forbidden": forbidden / n,
            "items": briefed / n}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=Path, nargs="+", default=[ROOT / "tuning" / "project-v1"])
    parser.add_argument("--pairs", type=Path, nargs="*", default=[], help="written task-rule pairs to fit on too")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    tasks = [t for folder in args.sets for t in collect(folder)]
    extra = [t for path in args.pairs for t in collect_pairs(path)]
    projects = sorted({t.project for t in tasks})
    models = {}
    for project in projects:
        train = [t for t in tasks if t.project != project] + extra
        models[project] = fit(np.vstack([t.x[t.y >= 0] for t in train]),
                              np.concatenate([t.y[t.y >= 0] for t in train]).astype(float))  # fmt: skip
    print("threshold, margin | held-out precision | recall | forbidden-task rate | items")
    best, chosen = -1.0, (0.5, 1.0)
    for threshold in (0.4, 0.5, 0.6, 0.7, 0.8):
        for margin in (0.1, 0.2, 0.3, 1.0):
            totals = dict.fromkeys(("precision", "recall", "forbidden", "items"), 0.0)
            for project in projects:
                test = [t for t in tasks if t.project == project]
                for k, v in briefs(test, *models[project], threshold, margin).items():
                    totals[k] += v * len(test)
            row = {k: v / len(tasks) for k, v in totals.items()}
            print(f"{threshold:.2f}, {margin:.1f} | {row['precision']:.3f} | {row['recall']:.3f} | "
                  f"{row['forbidden']:.3f} | {row['items']:.2f}")  # fmt: skip
            if row["recall"] - row["forbidden"] > best:  # what a person gains minus what misleads
                best, chosen = row["recall"] - row["forbidden"], (threshold, margin)
    x = np.vstack([t.x[t.y >= 0] for t in tasks + extra])
    y = np.concatenate([t.y[t.y >= 0] for t in tasks + extra]).astype(float)
    w, b = fit(x, y)
    print(f"threshold, margin {chosen}; all tasks (in-sample): {briefs(tasks, w, b, *chosen)}")
    print("weights:", dict(zip(FEATURES, np.round(w, 3).tolist(), strict=True)), "bias", round(b, 3))
    if args.out:
        model = RelevanceModel(FEATURES, tuple(float(v) for v in w), float(b), *chosen, judge_embedder().name)
        data = model.to_json().encode("utf-8")
        args.out.write_bytes(data)
        print(f"wrote {args.out}, sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
