"""Memory quality, tuning and blind side by side (docs/benchmarks.md; definitions in the shared
evaluation guide). Blind sets are read by this program only: it prints scores and failing ids,
never their text.

    .venv/bin/python -m bench.quality [--blind bench/blind/v1] [--out bench/results/quality.json]

Measured so far: project-memory extraction (precision, recall, kind accuracy, noise kept out) in
heuristic mode. A candidate matches a labelled rule when one of its evidence quotes and the
rule's quote overlap as normalised substrings either way; precision counts every candidate the
pipeline filed (pending or approved), recall every labelled rule.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import command_line, machine, now_iso, write_json
from forethought import Forethought
from forethought.pipeline.transcripts import parse_transcript

ROOT = Path(__file__).resolve().parent
BLIND = ROOT / "blind" / "v1"
TUNING_RESULTS = ROOT / "results" / "app_quality.json"
_SPACE = re.compile(r"\s+")


def norm(text: str) -> str:
    return _SPACE.sub(" ", text.casefold()).strip(" .,;:!?\"'`")


def overlaps(a: str, b: str) -> bool:
    x, y = norm(a), norm(b)
    return bool(x) and bool(y) and (x in y or y in x)


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
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text("utf-8").splitlines() if line.strip()]
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
        "precision": _ratio(tally.matched_candidates, tally.proposed),
        "recall": _ratio(tally.found_rules, tally.rules),
        "kind_accuracy": _ratio(tally.kind_right, tally.found_rules),
        "candidates": tally.proposed,
        "rules": tally.rules,
        "noise_kept_out": {k: _ratio(tally.noise_kept_out[k], n) for k, n in sorted(tally.noise.items())},
        "missed_rule_ids": tally.missed,
        "sessions_with_unmatched_candidates": tally.false,
    }


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def tuning_project() -> dict[str, Any]:
    data = json.loads(TUNING_RESULTS.read_text("utf-8"))
    overall = data["apps"]["project"]["overall"]
    return {"precision": overall["precision"], "recall": overall["recall"], "n": overall["tp"] + overall["fn"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blind", type=Path, default=BLIND)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "quality.json")
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    args = parser.parse_args()
    blind = score_project(args.blind / "project", args.embedder)
    tuning = tuning_project()
    rows = [
        ("project extraction precision", tuning["precision"], blind["precision"], blind["candidates"]),
        ("project extraction recall", tuning["recall"], blind["recall"], blind["rules"]),
        ("project kind accuracy (matches)", None, blind["kind_accuracy"], blind["rules"]),
        *((f"project noise kept out: {k}", None, v, None) for k, v in blind["noise_kept_out"].items()),
    ]
    print("| metric | tuning | blind | n (blind) |\n|---|---:|---:|---:|")
    for name, t, b, n in rows:
        print(f"| {name} | {'—' if t is None else t} | {'—' if b is None else b} | {'' if n is None else n} |")
    print(f"\nmissed rule ids ({len(blind['missed_rule_ids'])}): {', '.join(blind['missed_rule_ids'])}")
    print(f"sessions with unmatched candidates: {', '.join(blind['sessions_with_unmatched_candidates'])}")
    write_json(args.out, {"benchmark": "quality", "date": now_iso(), "command": command_line(), "machine": machine(),
                          "tuning": {"project": tuning}, "blind": {"project": blind}})  # fmt: skip


if __name__ == "__main__":
    main()
