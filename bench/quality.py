"""Memory quality, tuning and blind side by side (docs/benchmarks.md; definitions in the shared
evaluation guide). Blind sets are read by this program only: it prints scores and failing ids,
never their text.

    .venv/bin/python -m bench.quality [--blind bench/blind/v3 bench/blind/v2 ...] [--out bench/results/quality.json]

Each set is taken from the first `--blind` folder that holds it (the newest version first) and
scored in heuristic mode, each in a fresh store:
- project extraction (here): precision, recall, kind accuracy, noise kept out. A candidate matches
  a labelled rule when one of its evidence quotes and the rule's quote overlap as normalised
  substrings either way; precision counts every candidate the pipeline filed (pending or
  approved), recall every labelled rule;
- project brief and check over the labelled rules stored as records (`quality_project`);
- `project-read` (rules, tasks and drafts, no conversations): brief and check alone, the same way;
- supersession and `as_of` over the project sessions imported in order (`quality_history`);
- the bug-fix set's deciding rules among decoys (`quality_bugfix`);
- support lifecycle and career profile (`quality_apps`).
The tuning column holds the same metric on the sets that have become tuning data (`bench/tuning/`:
a blind set moves there once it has steered a change: project v1-v4, project-read v6-v7, bug-fix
v1; the column shows the newest of each, project v4 and project-read v7), else the figure of
`bench/results/app_quality.json` that measures the same thing on the older fixtures, else `—`.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import quality_apps, quality_bugfix, quality_history, quality_project
from bench.common import command_line, machine, now_iso, write_json
from bench.quality_common import Row, overlaps, ratio, read_jsonl
from forethought import Forethought
from forethought.pipeline.transcripts import parse_transcript

ROOT = Path(__file__).resolve().parent
BLIND = tuple(ROOT / "blind" / f"v{n}" for n in (11, 8, 5, 4, 3, 2, 1))  # each set from the newest folder holding it
# The newest tuning set of each kind (project v10 steered the checks of 2026-12-02, fifth session).
TUNING_SETS = {
    "project": ROOT / "tuning" / "project-v10",
    "project-read": ROOT / "tuning" / "project-read-v7",
    "bugfix": ROOT / "tuning" / "bugfix-v1",
}
TUNING_RESULTS = ROOT / "results" / "app_quality.json"


@dataclass
class Tally:
    proposed: int = 0
    matched_candidates: int = 0
    rules: int = 0
    found_rules: int = 0
    kind_right: int = 0
    noise: Counter[str] = field(default_factory=Counter)
    noise_kept_out: Counter[str] = field(default_factory=Counter)
    missed: list[str] = field(default_factory=list)  # rule ids
    false: list[str] = field(default_factory=list)  # session ids with an unmatched candidate


def _session_candidates(memory: Forethought, label: dict[str, Any], folder: Path) -> list[Any]:
    scope = memory.scope("project", label["project"])
    turns = parse_transcript((folder / label["file"]).read_bytes(), human=label.get("human"))
    done = memory.submit_session(scope, turns, title=label["id"], source="import")
    return [item.record for item in done.result.submission.items if item.outcome in ("pending", "approved")]


def score_project(folder: Path, embedder: str = "minilm") -> dict[str, Any]:
    labels = read_jsonl(folder / "labels.jsonl")
    labels.sort(key=lambda label: (label["project"], label.get("started_at") or ""))
    tally = Tally()
    with (
        tempfile.TemporaryDirectory() as tmp,
        Forethought.open(Path(tmp) / "q.db", embedder=embedder) as memory,
    ):
        for label in labels:
            records = _session_candidates(memory, label, folder)
            quotes = [(r, [e.quote for e in r.evidence]) for r in records]
            tally.proposed += len(records)
            matched = {
                r.id for r, qs in quotes for rule in label["rules"] if any(overlaps(q, rule["quote"]) for q in qs)
            }
            tally.matched_candidates += len(matched)
            if len(matched) < len(records):
                tally.false.append(label["id"])
            for rule in label["rules"]:
                tally.rules += 1
                hits = [r for r, qs in quotes if any(overlaps(q, rule["quote"]) for q in qs)]
                if hits:
                    tally.found_rules += 1
                    tally.kind_right += any(r.kind == rule["kind"] for r in hits)
                else:
                    tally.missed.append(rule["id"])
            for noise in label.get("noise", []):
                tally.noise[noise["reason"]] += 1
                kept_out = not any(overlaps(q, noise["quote"]) for _, qs in quotes for q in qs)
                tally.noise_kept_out[noise["reason"]] += kept_out
    return {
        "sessions": len(labels),
        "precision": ratio(tally.matched_candidates, tally.proposed),
        "recall": ratio(tally.found_rules, tally.rules),
        "kind_accuracy": ratio(tally.kind_right, tally.found_rules),
        "candidates": tally.proposed,
        "rules": tally.rules,
        "noise_kept_out": {k: ratio(tally.noise_kept_out[k], n) for k, n in sorted(tally.noise.items())},
        "missed_rule_ids": tally.missed,
        "sessions_with_unmatched_candidates": tally.false,
    }


def project_rows(blind: dict[str, Any]) -> list[Row]:
    return [
        Row("project", "extraction precision", blind["precision"], blind["candidates"]),
        Row("project", "extraction recall", blind["recall"], blind["rules"]),
        Row("project", "kind accuracy (matches)", blind["kind_accuracy"], blind["rules"]),
        *(Row("project", f"noise kept out: {k}", v) for k, v in blind["noise_kept_out"].items()),
    ]


def tuning() -> dict[tuple[str, str], float]:
    """The app_quality figures that measure what a blind row measures, by (app, metric)."""
    apps = json.loads(TUNING_RESULTS.read_text("utf-8"))["apps"]
    project, career = apps["project"]["overall"], apps["career"]["per_kind"]
    return {
        ("project", "extraction precision"): project["precision"],
        ("project", "extraction recall"): project["recall"],
        ("career", "skill precision"): career["skill"]["precision"],
        ("career", "skill recall"): career["skill"]["recall"],
        ("career", "application recall"): career["application"]["recall"],
    }


Scorer = Callable[[Path, str], dict[str, Any]]
SETS: dict[str, dict[str, Scorer]] = {
    "project": {
        "extraction": score_project,
        "read": quality_project.score_project_read,
        "history": quality_history.score_history,
    },
    # Rules, tasks and drafts without conversations: the brief and the check on a set of their own.
    "project-read": {"read_only": quality_project.score_project_read},
    "bugfix": {"bugfix": quality_bugfix.score_bugfix},
    "support": {"support": quality_apps.score_support},
    "career": {"career": quality_apps.score_career},
}


def _rows_and_failing(blind: dict[str, Any]) -> tuple[list[Row], dict[str, list[str]]]:
    rows: list[Row] = []
    failing: dict[str, list[str]] = {}
    if "extraction" in blind:
        rows += project_rows(blind["extraction"])
        failing["project extraction: missed rule ids"] = blind["extraction"]["missed_rule_ids"]
        failing["project extraction: sessions with unmatched candidates"] = blind["extraction"][
            "sessions_with_unmatched_candidates"
        ]
    if "read" in blind:
        rows += quality_project.rows(blind["read"])
        failing |= quality_project.failing(blind["read"])
    if "read_only" in blind:
        rows += quality_project.rows(blind["read_only"], "project-read")
        failing |= quality_project.failing(blind["read_only"], "project-read")
    if "history" in blind:
        rows += quality_history.rows(blind["history"])
        failing |= quality_history.failing(blind["history"])
    if "bugfix" in blind:
        rows += quality_bugfix.rows(blind["bugfix"])
        failing |= quality_bugfix.failing(blind["bugfix"])
    if "support" in blind and "career" in blind:
        rows += quality_apps.rows(blind["support"], blind["career"])
        failing |= quality_apps.failing(blind["support"], blind["career"])
    return rows, failing


def _cell(value: float | int | None) -> str:
    return "—" if value is None else str(value)


def print_table(rows: list[Row], tuned: dict[tuple[str, str], float], failing: dict[str, list[str]]) -> None:
    print("| app | metric | tuning | blind | n (blind) |\n|---|---|---:|---:|---:|")
    for row in rows:
        n = "" if row.n is None else row.n
        print(f"| {row.app} | {row.metric} | {_cell(tuned.get((row.app, row.metric)))} | {_cell(row.blind)} | {n} |")
    for name, ids in failing.items():
        print(f"\n{name} ({len(ids)}): {', '.join(ids)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blind", type=Path, nargs="+", default=list(BLIND))
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "quality.json")
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    args = parser.parse_args()
    blind: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    used: dict[str, str] = {}
    for name, scorers in SETS.items():
        folder = next((f / name for f in args.blind if (f / name / "labels.jsonl").is_file()), None)
        if folder is None:
            continue
        used[name] = str(folder.relative_to(ROOT.parent))
        for part, scorer in scorers.items():
            start = time.perf_counter()
            blind[part] = scorer(folder, args.embedder)
            seconds[part] = round(time.perf_counter() - start, 1)
    rows, failing = _rows_and_failing(blind)
    tuned = tuning()
    tuning_scores: dict[str, Any] = {}
    for name, folder in TUNING_SETS.items():
        for part, scorer in SETS[name].items():
            tuning_scores[part] = scorer(folder, args.embedder)
    tuned |= {(r.app, r.metric): r.blind for r in _rows_and_failing(tuning_scores)[0] if r.blind is not None}
    tuning_used = {k: str(v.relative_to(ROOT.parent)) for k, v in TUNING_SETS.items()}
    print(f"blind sets: {json.dumps(used)}; tuning sets: {json.dumps(tuning_used)}\n")
    print_table(rows, tuned, failing)
    print(f"\nseconds per part: {json.dumps(seconds)}")
    write_json(args.out, {"benchmark": "quality", "date": now_iso(), "command": command_line(), "machine": machine(),
                          "embedder": args.embedder, "seconds": seconds, "blind_sets": used,
                          "table": [{"app": r.app, "metric": r.metric, "tuning": tuned.get((r.app, r.metric)),
                                     "blind": r.blind, "n": r.n} for r in rows],
                          "tuning": {f"{a}: {m}": v for (a, m), v in tuned.items()}, "blind": blind,
                          "tuning_sets": tuning_scores})  # fmt: skip


if __name__ == "__main__":
    main()
