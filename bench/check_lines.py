"""The check stage on a written rule-vs-line corpus (`data/checks/`, SPEC.md there).

    .venv/bin/python -m bench.check_lines [data/checks/rules-*.jsonl] [--out bench/results/check_lines.json]

Each rule is filed as an active project record of its kind, with the check patterns the project
app derives from its words; each labelled line is then checked alone, with its file path, against
that record. A line is flagged when the check reports a violation. Precision and recall are over
`violates` lines, per source (pattern, value) and per kind; the false-flag rate is given apart for
`complies` lines (about the rule's subject, yet following it) and `unrelated` ones. The heuristic
check only (no model configured), over the shipped MiniLM embedder, as `check` runs by default.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.quality_common import ratio, read_jsonl
from forethought import Forethought

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT.parent / "data" / "checks"


def score(paths: list[Path]) -> dict[str, Any]:
    rules = [rule for path in paths for rule in read_jsonl(path)]
    flagged: Counter[str] = Counter()  # label -> lines flagged
    lines: Counter[str] = Counter()
    right_by_source: Counter[str] = Counter()
    by_source: Counter[str] = Counter()
    kind_hits: Counter[str] = Counter()
    kind_violations: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp, Forethought.open(Path(tmp) / "c.db", embedder="minilm") as memory:
        scope = memory.scope("project", "corpus")
        for rule in rules:
            record = memory.retain(scope, rule["rule"], kind=rule["kind"]).record
            for line in rule["lines"]:
                label = line["label"]
                lines[label] += 1
                report = memory.check(scope, line["text"], records=[record], path=line["path"])
                sources = {v.source for v in report.violations}
                if label == "violates":
                    kind_violations[rule["kind"]] += 1
                    kind_hits[rule["kind"]] += bool(sources)
                if sources:
                    flagged[label] += 1
                    for source in sources:
                        by_source[source] += 1
                        right_by_source[source] += label == "violates"
    findings = sum(flagged.values())
    return {
        "rules": len(rules),
        "lines": dict(lines),
        "precision": ratio(flagged["violates"], findings),
        "recall": ratio(flagged["violates"], lines["violates"]),
        "false_flag_rate": {k: ratio(flagged[k], lines[k]) for k in ("complies", "unrelated")},
        "by_source": {
            s: {"findings": n, "precision": ratio(right_by_source[s], n)} for s, n in sorted(by_source.items())
        },
        "recall_by_kind": {k: ratio(kind_hits[k], n) for k, n in sorted(kind_violations.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, nargs="*")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    result = score(args.corpus or sorted(CORPUS.glob("rules-*.jsonl")))
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", "utf-8")


if __name__ == "__main__":
    main()
