"""Validator quality: per-rule precision and recall on a hand-labelled set of candidates.

    python -m bench.validator_quality [--fixtures bench/fixtures/validator] [--out bench/results/validator_quality.json]

Each line of `bench/fixtures/validator/<app>.jsonl` is one small session and one candidate:

    {"id": "support-07", "turns": [["user", "..."], ["agent", "..."]],
     "candidate": {"kind": "issue", "statement": "...", "evidence": ["verbatim quote", ...], ...},
     "expected": "accept" | "reject:<rule>" | "flag:<flag>", "personal_data": "reject"}  (last key optional)

The file name picks the app (its kinds and personal-data policy, below). Outcomes: a rejected
candidate is "reject:<rule>"; an accepted one is "flag:<flag>" for each flag it carries, or "accept"
when it carries none. A line is right when its expected label is among the outcomes (for "accept":
accepted without flags). Per label: precision and recall over all lines. Overall: decision accuracy
(rejected or not, as expected) and exact accuracy (the right rule or flag as well). The fixtures
were written from the validator's specification before it was run on them; misses are listed,
not tuned away. Also listed: lines labelled `secret` whose session came back unredacted (a
rejected candidate is not enough if the session keeps the secret).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from bench.common import command_line, markdown_table, now_iso, write_json
from forethought.apps.base import App, KindSpec
from forethought.domain import Evidence, Role, Session, Turn
from forethought.domain.candidates import Candidate
from forethought.pipeline.validator import validate

FIXTURES = Path(__file__).parent / "fixtures" / "validator"
OUT = Path(__file__).parent / "results" / "validator_quality.json"
APPS: dict[str, tuple[tuple[str, ...], Literal["reject", "redact"]]] = {
    "career": (("goal", "skill", "preference", "application", "constraint", "experience"), "redact"),
    "support": (("account", "issue", "attempted_fix", "product", "preference"), "reject"),
    "project": (("decision", "convention", "constraint", "failed_approach", "dependency"), "reject"),
}


def _app(name: str, policy: Literal["reject", "redact"] | None = None) -> App:
    kinds, default = APPS[name]
    specs = {k: KindSpec(name=k, description=k, attributes=BaseModel) for k in kinds}
    body = {"name": name, "title": name, "subject_type": "subject", "kinds": specs, "extract": lambda self, s: []}
    app: App = type(f"Bench{name.title()}App", (App,), body)()
    app.personal_data = policy or default
    return app


def _case(row: dict[str, Any]) -> tuple[Candidate, Session]:
    turns = tuple(Turn(index=i, role=Role(role), text=text) for i, (role, text) in enumerate(row["turns"]))
    session = Session(id=row["id"], space_id="bench", title=row["id"], created_at=datetime.now(UTC), turns=turns)
    data = dict(row["candidate"])
    data["evidence"] = [Evidence(quote=q) for q in data.get("evidence", [])]
    return Candidate(**data), session


def _outcomes(candidate: Candidate, session: Session, app: App) -> tuple[set[str], str, bool]:
    """The outcome labels, the rejection reason, and whether any turn of the session was redacted."""
    report = validate([candidate], session, app)
    v, redacted = report.validated, bool(report.redacted_turns)
    if v.rejected:
        return {f"reject:{v.rejected[0].rule}"}, v.rejected[0].reason, redacted
    flags = {f"flag:{f.value}" for f in v.accepted[0].flags}
    return flags or {"accept"}, "", redacted


def run(fixtures: Path) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for path in sorted(fixtures.glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                candidate, session = _case(row)
                got, reason, redacted = _outcomes(candidate, session, _app(path.stem, row.get("personal_data")))
                rows.append({"id": row["id"], "expected": row["expected"], "got": sorted(got), "reason": reason,
                             "session_redacted": redacted})  # fmt: skip
    labels = sorted({r["expected"] for r in rows} | {g for r in rows for g in r["got"]})
    per_label = {}
    for label in labels:
        tp = sum(r["expected"] == label and label in r["got"] for r in rows)
        fp = sum(r["expected"] != label and label in r["got"] for r in rows)
        fn = sum(r["expected"] == label and label not in r["got"] for r in rows)
        per_label[label] = {
            "support": tp + fn,
            "predicted": tp + fp,
            "precision": round(tp / (tp + fp), 3) if tp + fp else None,
            "recall": round(tp / (tp + fn), 3) if tp + fn else None,
        }
    exact = [r for r in rows if r["expected"] in r["got"]]
    same_decision = [r for r in rows if r["expected"].startswith("reject:") == r["got"][0].startswith("reject:")]
    return {
        "generated_at": now_iso(),
        "command": command_line(),
        "fixtures": str(fixtures),
        "lines": len(rows),
        "decision_accuracy": round(len(same_decision) / len(rows), 3),
        "exact_accuracy": round(len(exact) / len(rows), 3),
        "per_label": per_label,
        "misses": [r for r in rows if r["expected"] not in r["got"]],
        # A secret line whose session kept all its text: either the secret is only in the candidate
        # (nothing to redact) or the session still holds it. Read them; the score above cannot tell.
        "secret_lines_with_session_unredacted": [
            r["id"] for r in rows if r["expected"] == "reject:secret" and not r["session_redacted"]
        ],
    }


def _show(result: dict[str, Any]) -> None:
    def pct(x: float | None) -> str:
        return "-" if x is None else f"{x:.0%}"

    rows = [[k, str(v["support"]), str(v["predicted"]), pct(v["precision"]), pct(v["recall"])]
            for k, v in result["per_label"].items()]  # fmt: skip
    print(markdown_table(["label", "expected", "predicted", "precision", "recall"], rows))
    print(f"\n{result['lines']} candidates; decision accuracy (rejected or not) {result['decision_accuracy']:.1%};"
          f" exact accuracy (right rule / flag) {result['exact_accuracy']:.1%}")  # fmt: skip
    for m in result["misses"]:
        print(f"  miss {m['id']}: expected {m['expected']}, got {', '.join(m['got'])}  {m['reason']}")
    unredacted = ", ".join(result["secret_lines_with_session_unredacted"]) or "none"
    print(f"lines labelled reject:secret whose session text was left unredacted: {unredacted}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    result = run(args.fixtures)
    _show(result)
    write_json(args.out, result)
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
