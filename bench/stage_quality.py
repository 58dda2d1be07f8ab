"""Quality of the read-side stages in heuristic mode (no language model), on hand-labelled fixtures.

    python -m bench.stage_quality [--embedder minilm|hashing|both] [--out bench/results/stage_quality.json]

Check (`bench/fixtures/check/*.jsonl`): each line is a scenario, a memory (records with kind,
statement, attributes, check patterns, confidence) and drafts, each with the violations a careful
reviewer expects (record, a fragment of the offending text, "" when the violation is something left
out). A reported violation is a true positive when it names an expected record and its excerpt
contains the expected fragment (or both are empty); an expected violation met twice counts once;
a reported violation matching nothing expected is a false positive. Drafts are also scored whole:
"flagged" means at least one violation of severity error or warning. The check runs two ways:
`provided` (the scenario's whole memory passed as the records the draft was written with) and
`recalled` (no records given: the check recalls from the space itself).

Brief (`bench/fixtures/brief/*.jsonl`): each line a memory and tasks, each task with `must_apply`
and `must_not_apply` record lists (records in neither are not scored). Precision is over used
records that are labelled; recall over `must_apply`. Token figures compare the memory block with
loading every record of the space.

The fixtures were written from the domains before the figures were first computed and are not
tuned on. Apps: the generic app throughout, except that support scenarios use
`forethought.apps.support` when it is installed (its action vocabulary is part of the check).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.common import command_line, machine, markdown_table, now_iso, write_json
from forethought import Forethought, Record, Scope
from forethought.apps.base import App
from forethought.apps.generic import APP as GENERIC
from forethought.domain import CheckPatterns, Status
from forethought.domain.times import utcnow
from forethought.embed.base import Embedder
from forethought.memory.writing import Draft, index_payload, new_record
from forethought.pipeline.brief import build_brief
from forethought.pipeline.check import check_draft
from forethought.store.base import ChangeSet, NewRecord

FIXTURES = Path(__file__).parent / "fixtures"
DEFAULT_OUT = Path(__file__).parent / "results" / "stage_quality.json"


def read_jsonl(folder: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")):
        rows += [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return rows


def prf(tp: int, fp: int, fn: int) -> dict[str, Any]:
    precision = round(tp / (tp + fp), 3) if tp + fp else None
    recall = round(tp / (tp + fn), 3) if tp + fn else None
    f1 = round(2 * precision * recall / (precision + recall), 3) if precision and recall else None
    return {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall, "f1": f1}


def app_for(domain: str) -> App:
    if domain == "support":
        try:
            from forethought.apps.support import APP as SUPPORT  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            return GENERIC
        return SUPPORT  # type: ignore[no-any-return,unused-ignore]
    return GENERIC


def load(memory: Forethought, scope: Scope, items: list[dict[str, Any]]) -> dict[str, Record]:
    """Store the fixture's records (check patterns included, which `retain` does not take)."""
    space = memory.space(scope)
    records: dict[str, Record] = {}
    for item in items:
        draft = Draft(kind=item["kind"], statement=item["statement"], tags=tuple(item.get("tags", ())),
                      attributes=item.get("attributes") or {}, confidence=item.get("confidence", 1.0))  # fmt: skip
        record = new_record(space.id, draft, status=Status.ACTIVE, occurred_at=utcnow(), now=utcnow())
        if "check" in item:
            check = CheckPatterns(
                forbid=tuple(item["check"].get("forbid", ())), require=tuple(item["check"].get("require", ()))
            )
            record = record.model_copy(update={"check": check})
        records[item["key"]] = record
    payloads = [index_payload(r) for r in records.values()]
    vectors = memory.embedder.embed([p.embed_text for p in payloads]) if memory.embedder else None
    inserts = [
        NewRecord(r, None if vectors is None else vectors[i], p.terms, p.search_text)
        for i, (r, p) in enumerate(zip(records.values(), payloads, strict=True))
    ]
    memory.store.records.apply(ChangeSet(space.id, inserts=inserts))
    return records


def _same(expected: dict[str, Any], key: str, excerpt: str) -> bool:
    """A reported violation meets an expected one: same record, and the expected fragment is in the
    reported excerpt (or both are empty: something left out)."""
    if expected["record"] != key:
        return False
    return expected["excerpt"] in excerpt if expected["excerpt"] else not excerpt


def score_check(embedder: Embedder, way: str) -> dict[str, Any]:
    totals: Counter[str] = Counter()
    by_domain: dict[str, Counter[str]] = {}
    misses: list[dict[str, Any]] = []
    false_alarms: list[dict[str, Any]] = []
    severity_agree = severity_total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, scenario in enumerate(read_jsonl(FIXTURES / "check")):
            with Forethought(_store(Path(tmp) / f"c{n}.db", embedder), embedder) as memory:
                app = app_for(scenario["domain"])
                scope = memory.scope(app, scenario["subject"])
                records = load(memory, scope, scenario["memory"])
                key_of = {r.id: k for k, r in records.items()}
                for case in scenario["drafts"]:
                    given = list(records.values()) if way == "provided" else None
                    report = check_draft(memory.memory, scope, case["draft"], records=given)
                    found = [(key_of.get(v.record_id, "?"), v) for v in report.violations]
                    matched: set[int] = set()
                    fp = 0
                    for key, v in found:
                        hit = next((i for i, e in enumerate(case["expected"]) if _same(e, key, v.excerpt)), None)
                        if hit is None:
                            fp += 1
                            false_alarms.append(
                                {"draft": case["id"], "record": key, "source": v.source, "excerpt": v.excerpt}
                            )
                        elif hit not in matched:
                            matched.add(hit)
                            severity_total += 1
                            severity_agree += v.severity == case["expected"][hit].get("severity", "error")
                    fn = len(case["expected"]) - len(matched)
                    misses += [{"draft": case["id"], **e} for i, e in enumerate(case["expected"]) if i not in matched]
                    flagged, should = bool(report.violations), bool(case["expected"])
                    counts = Counter(tp=len(matched), fp=fp, fn=fn, drafts=1, d_tp=flagged and should,
                                     d_fp=flagged and not should, d_fn=should and not flagged)  # fmt: skip
                    totals.update(counts)
                    by_domain.setdefault(scenario["domain"], Counter()).update(counts)
    expected = Counter(e["source"] for s in read_jsonl(FIXTURES / "check") for d in s["drafts"] for e in d["expected"])
    missed = Counter(m["source"] for m in misses)
    alarms = Counter(a["source"] for a in false_alarms)
    return {
        "violations": prf(totals["tp"], totals["fp"], totals["fn"]),
        "drafts": {"count": totals["drafts"], **prf(totals["d_tp"], totals["d_fp"], totals["d_fn"])},
        # Recall by the kind of violation a reviewer expects; false positives by the source reporting them.
        "by_expected_source": {k: f"{n - missed[k]}/{n} found" for k, n in sorted(expected.items())},
        "false_positives_by_source": dict(sorted(alarms.items())),
        "severity_agreement": f"{severity_agree}/{severity_total}",
        "by_domain": {d: prf(c["tp"], c["fp"], c["fn"]) for d, c in sorted(by_domain.items())},
        "misses": misses,
        "false_alarms": false_alarms,
    }


def score_brief(embedder: Embedder) -> dict[str, Any]:
    totals: Counter[str] = Counter()
    by_domain: dict[str, Counter[str]] = {}
    misses: list[dict[str, Any]] = []
    wrong: list[dict[str, Any]] = []
    block_tokens: list[int] = []
    all_tokens: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, scenario in enumerate(read_jsonl(FIXTURES / "brief")):
            with Forethought(_store(Path(tmp) / f"b{n}.db", embedder), embedder) as memory:
                scope = memory.scope(app_for(scenario["domain"]), scenario["subject"])
                records = load(memory, scope, scenario["memory"])
                key_of = {r.id: k for k, r in records.items()}
                for case in scenario["tasks"]:
                    brief = build_brief(memory.memory, scope, case["task"],
                                        file_paths=case.get("file_paths", ()))  # fmt: skip
                    used = {key_of[i.record.id]: i.reason for i in brief.used}
                    must, must_not = set(case["must_apply"]), set(case["must_not_apply"])
                    chosen = set(used)
                    counts = Counter(tp=len(must & chosen), fp=len(must_not & chosen), fn=len(must - chosen),
                                     neutral=len(chosen - must - must_not), tasks=1)  # fmt: skip
                    totals.update(counts)
                    by_domain.setdefault(scenario["domain"], Counter()).update(counts)
                    misses += [{"task": case["task"], "record": k} for k in sorted(must - used.keys())]
                    wrong += [
                        {"task": case["task"], "record": k, "reason": used[k]} for k in sorted(must_not & used.keys())
                    ]
                    block_tokens.append(brief.block_tokens)
                    all_tokens.append(brief.all_memory_tokens)
    return {
        "records": prf(totals["tp"], totals["fp"], totals["fn"]),
        "tasks": totals["tasks"],
        "neutral_used": totals["neutral"],
        "by_domain": {d: prf(c["tp"], c["fp"], c["fn"]) for d, c in sorted(by_domain.items())},
        "mean_block_tokens": round(sum(block_tokens) / len(block_tokens), 1),
        "mean_all_memory_tokens": round(sum(all_tokens) / len(all_tokens), 1),
        "misses": misses,
        "wrongly_used": wrong,
    }


def _store(path: Path, embedder: Embedder) -> Any:
    from forethought.store.sqlite import SQLiteStore

    return SQLiteStore(path, dim=embedder.dim)


def make_embedder(name: str) -> Embedder:
    from forethought.plugins import registry

    return registry().embedder(name)()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=["minilm", "hashing", "both"], default="both")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    names = ["minilm", "hashing"] if args.embedder == "both" else [args.embedder]
    results: dict[str, Any] = {}
    rows = []
    for name in names:
        embedder = make_embedder(name)
        check = {way: score_check(embedder, way) for way in ("provided", "recalled")}
        brief = score_brief(embedder)
        results[name] = {"check": check, "brief": brief}
        for way, figures in check.items():
            v, d = figures["violations"], figures["drafts"]
            rows.append([f"check ({way}), {name}", str(v["precision"]), str(v["recall"]), str(v["f1"]),
                         f"drafts P {d['precision']} R {d['recall']}"])  # fmt: skip
        r = brief["records"]
        tokens = f"block {brief['mean_block_tokens']} vs all {brief['mean_all_memory_tokens']} tokens"
        rows.append([f"brief, {name}", str(r["precision"]), str(r["recall"]), str(r["f1"]), tokens])
    support_app = app_for("support")
    payload = {
        "generated": now_iso(),
        "command": command_line(),
        "machine": machine(),
        "mode": "heuristic (no language model)",
        "apps": {"support": support_app.name, "others": GENERIC.name},
        "results": results,
    }
    write_json(args.out, payload)
    print(markdown_table(["stage", "precision", "recall", "F1", "notes"], rows))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
