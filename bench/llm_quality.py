"""Project extraction through a real local model next to the heuristic path, on the same sessions.

    # a model served on loopback, e.g. ../shared/tools/local_llm (LLM_MODEL=1.5b ./setup.sh VENV)
    .venv/bin/python -m bench.llm_quality --base-url http://127.0.0.1:8088/v1 [--set bench/blind/v2/project]
        [--sessions 6] [--out bench/results/llm_quality.json]

Both paths run the extraction stage alone (`extract_candidates`, no validator) on the first
`--sessions` sessions of the set, in label order; a candidate matches a labelled rule when one of
its evidence quotes and the rule's quote overlap as normalised substrings either way (as in
`bench.quality`). Prints precision, recall, kind accuracy, the LLM's degraded windows and the time
per session of each path: scores and ids only, never a blind set's text. By hand, never in a test.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common import command_line, machine, now_iso, write_json
from bench.quality_common import overlaps, ratio, read_jsonl
from forethought.domain import Session, Turn
from forethought.llm.openai_compat import OpenAICompatibleModel
from forethought.pipeline.extract import extract_candidates
from forethought.pipeline.transcripts import parse_transcript
from forethought.plugins import registry

ROOT = Path(__file__).resolve().parent


def _session(folder: Path, label: dict[str, Any]) -> Session:
    turns = parse_transcript((folder / label["file"]).read_bytes(), human=label.get("human"))
    return Session(id=label["id"], space_id="bench", title=label["id"], created_at=datetime(2026, 1, 1, tzinfo=UTC),
                   turns=tuple(Turn(index=i, role=t.role, text=t.text, speaker=t.speaker)
                               for i, t in enumerate(turns)))  # fmt: skip


def score(folder: Path, labels: list[dict[str, Any]], model: Any) -> dict[str, Any]:
    app = registry().app("project")
    proposed = matched = rules = found = kind_right = 0
    seconds: list[float] = []
    degraded: list[str] = []
    for label in labels:
        session = _session(folder, label)
        start = time.perf_counter()
        result = extract_candidates(session, app, model)
        seconds.append(round(time.perf_counter() - start, 1))
        if result.degraded:
            degraded.append(label["id"])
        quotes = [(c, [e.quote for e in c.evidence]) for c in result.candidates]
        proposed += len(quotes)
        matched += sum(1 for _, qs in quotes if any(overlaps(q, r["quote"]) for q in qs for r in label["rules"]))
        for rule in label["rules"]:
            rules += 1
            hits = [c for c, qs in quotes if any(overlaps(q, rule["quote"]) for q in qs)]
            found += bool(hits)
            kind_right += any(c.kind == rule["kind"] for c in hits)
    return {"sessions": len(labels), "candidates": proposed, "rules": rules, "precision": ratio(matched, proposed),
            "recall": ratio(found, rules), "kind_accuracy": ratio(kind_right, found), "seconds": seconds,
            "seconds_total": round(sum(seconds), 1), "degraded_sessions": degraded}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", default="local")
    parser.add_argument("--set", type=Path, default=ROOT / "blind" / "v2" / "project")
    parser.add_argument("--sessions", type=int, default=6)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "llm_quality.json")
    args = parser.parse_args()
    labels = sorted(read_jsonl(args.set / "labels.jsonl"), key=lambda lab: lab["id"])[: args.sessions]
    llm = OpenAICompatibleModel.local(args.base_url, model=args.model, supports_json_schema=True, timeout_s=900)
    results = {"heuristic": score(args.set, labels, None), f"llm:{args.model}": score(args.set, labels, llm)}
    print("| path | precision | recall | kind accuracy | candidates | seconds (total) | degraded sessions |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, r in results.items():
        print(f"| {name} | {r['precision']} | {r['recall']} | {r['kind_accuracy']} | {r['candidates']} | "
              f"{r['seconds_total']} | {', '.join(r['degraded_sessions']) or '—'} |")  # fmt: skip
    write_json(args.out, {"benchmark": "llm_quality", "date": now_iso(), "command": command_line(),
                          "machine": machine(), "set": str(args.set.relative_to(ROOT.parent)),
                          "session_ids": [lab["id"] for lab in labels], "results": results})  # fmt: skip


if __name__ == "__main__":
    main()
