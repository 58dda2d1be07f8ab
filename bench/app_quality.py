"""Extraction quality of each app's heuristic extractor, on labelled fixture sessions.

    python -m bench.app_quality [--app NAME ...] [--out bench/results/app_quality.json]

Each app has its own fixtures under `bench/fixtures/<app>/` and its own functions here, named for
the app and registered in `APPS`; an app's entry in the results file is replaced by a run for that
app and the other apps' entries are kept, so apps can be measured one at a time. The fixtures are
labelled from the domain by hand and are never tuned on; the extractor is the offline heuristic
one (no model).

Project (`project_*`): every fixture line is a coding-agent session with `expected` candidates
(turn, kind, area, and a fragment of the sentence), `not_expected` sentences (transient state,
deferred ideas, questions, agent plans) and a few `optional` sentences a reviewer could accept
either way (neither rewarded nor penalised). A candidate matches an expected item when it quotes
the same turn and its quote contains the fragment; the kind must agree for a true positive (a
wrong kind is both a false positive of its kind and a false negative of the expected one, and is
listed under `confusions`). Area accuracy is over true positives. Sessions are split into `dev`
(the ones looked at while writing the extractor's unit tests) and `held_out`.

Career and support (`career_*`, `support_*`): three sets per app, each scored once before any fix
it prompted: `dev` (written first), `dev2` (written after the first run, then used to fix the
extractors) and `held_out` (written last, never tuned on). Every fixture line is a session with `expected`
candidates given by kind and key attributes (and optionally `asserted_by`) and `not_expected` ones
(negations, hypotheticals, the agent's words, "I'll try that"). A candidate matches an expected
item when the kind agrees and every listed attribute does: free-text attributes (names, roles,
products, values) when the expected words are among the candidate's, the rest exactly (support
actions after `normalise_action`). Each expected item matches at most one candidate; unmatched
candidates are false positives. Evidence validity: the quote is a substring of the turn it names and
the role is that turn's.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common import command_line, machine, markdown_table, now_iso, write_json
from forethought.domain import Role, Session, Turn

FIXTURES = Path(__file__).parent / "fixtures"
DEFAULT_OUT = Path(__file__).parent / "results" / "app_quality.json"


# -- shared ------------------------------------------------------------------------------------
def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 3) if den else None


def prf(tp: int, fp: int, fn: int) -> dict[str, Any]:
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    f1 = round(2 * precision * recall / (precision + recall), 3) if precision and recall else None
    return {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall, "f1": f1}


def read_jsonl(folder: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")):
        rows += [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return rows


def to_session(row: dict[str, Any], space_id: str = "bench") -> Session:
    turns = tuple(Turn(index=i, role=Role(t["role"]), text=t["text"]) for i, t in enumerate(row["turns"]))
    return Session(
        id=row["id"],
        space_id=space_id,
        title=row.get("title", row["id"]),
        turns=turns,
        created_at=datetime(2025, 1, 1, tzinfo=UTC),
    )


# -- project -----------------------------------------------------------------------------------
@dataclass
class _Tally:
    tp: Counter[str]
    fp: Counter[str]
    fn: Counter[str]

    @classmethod
    def empty(cls) -> _Tally:
        return cls(Counter(), Counter(), Counter())

    def totals(self) -> dict[str, Any]:
        return prf(sum(self.tp.values()), sum(self.fp.values()), sum(self.fn.values()))


def _overlaps(quote: str, fragment: str) -> bool:
    q, f = quote.casefold(), fragment.casefold()
    return f in q or q in f


def project_score(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Score the project app's heuristic extractor on labelled sessions."""
    from forethought.apps.project import APP

    tallies = {"all": _Tally.empty(), "dev": _Tally.empty(), "held_out": _Tally.empty()}
    area_ok = area_total = 0
    unwanted = unwanted_hit = 0
    confusions: Counter[str] = Counter()
    misses: list[dict[str, Any]] = []
    false_positives: list[dict[str, Any]] = []
    area_errors: list[dict[str, Any]] = []
    for row in rows:
        predicted = [
            (c.kind, c.evidence[0].turn_index, c.evidence[0].quote, c.attributes.get("area"))
            for c in APP.extract(to_session(row))
        ]
        used: set[int] = set()
        split = tallies[row.get("split", "held_out")]
        for e in row["expected"]:
            hits = [
                i
                for i, p in enumerate(predicted)
                if i not in used and p[1] == e["turn"] and _overlaps(p[2], e["quote"])
            ]
            same = [i for i in hits if predicted[i][0] == e["kind"]]
            for tally in (tallies["all"], split):
                (tally.tp if same else tally.fn)[e["kind"]] += 1
            if same:
                used.add(same[0])
                area_total += 1
                area_ok += predicted[same[0]][3] == e["area"]
                if predicted[same[0]][3] != e["area"]:
                    area_errors.append(
                        {"session": row["id"], "quote": e["quote"], "expected": e["area"], "got": predicted[same[0]][3]}
                    )
                continue
            if hits:
                used.add(hits[0])
                confusions[f"{e['kind']} -> {predicted[hits[0]][0]}"] += 1
                for tally in (tallies["all"], split):
                    tally.fp[predicted[hits[0]][0]] += 1
            misses.append(
                {
                    "session": row["id"],
                    "turn": e["turn"],
                    "kind": e["kind"],
                    "quote": e["quote"],
                    "got": predicted[hits[0]][0] if hits else None,
                }
            )
        optional = row.get("optional", [])
        for i, (kind, turn, quote, _) in enumerate(predicted):
            if i in used or any(o["turn"] == turn and _overlaps(quote, o["quote"]) for o in optional):
                continue
            for tally in (tallies["all"], split):
                tally.fp[kind] += 1
            false_positives.append({"session": row["id"], "turn": turn, "kind": kind, "quote": quote})
        for n in row.get("not_expected", []):
            unwanted += 1
            unwanted_hit += any(p[1] == n["turn"] and _overlaps(p[2], n["quote"]) for p in predicted)
    every = tallies["all"]
    kinds = sorted(set(every.tp) | set(every.fp) | set(every.fn))
    return {
        "sessions": len(rows),
        "expected": sum(len(r["expected"]) for r in rows),
        "overall": every.totals(),
        "per_kind": {k: prf(every.tp[k], every.fp[k], every.fn[k]) for k in kinds},
        "per_split": {name: t.totals() for name, t in tallies.items() if name != "all"},
        "area_accuracy": _ratio(area_ok, area_total),
        "not_expected": {
            "total": unwanted,
            "extracted": unwanted_hit,
            "correctly_skipped": _ratio(unwanted - unwanted_hit, unwanted),
        },
        "confusions": dict(confusions.most_common()),
        "misses": misses,
        "false_positives": false_positives,
        "area_errors": area_errors,
    }


def project_quality(fixtures: Path = FIXTURES / "project") -> dict[str, Any]:
    rows = read_jsonl(fixtures)
    return {
        "mode": "heuristic",
        "fixtures": str(fixtures.relative_to(Path.cwd()) if fixtures.is_relative_to(Path.cwd()) else fixtures),
        **project_score(rows),
    }


def project_table(report: dict[str, Any]) -> str:
    rows = [
        [kind, str(v["tp"]), str(v["fp"]), str(v["fn"]), str(v["precision"]), str(v["recall"])]
        for kind, v in report["per_kind"].items()
    ]
    o = report["overall"]
    rows.append(["**all**", str(o["tp"]), str(o["fp"]), str(o["fn"]), str(o["precision"]), str(o["recall"])])
    return markdown_table(["kind", "tp", "fp", "fn", "precision", "recall"], rows)


# -- career and support: attribute matching ---------------------------------------------------
_FREE_TEXT = frozenset({"name", "role", "product", "value", "summary", "industry", "location", "description"})


def _same(key: str, want: Any, got: Any, norm: Callable[[str, str], str]) -> bool:
    if isinstance(want, list):
        return {norm(key, str(w)) for w in want} <= {norm(key, str(g)) for g in got or []}
    if isinstance(want, str) and got is not None:
        if key in _FREE_TEXT:
            return set(norm(key, want).split()) <= set(norm(key, str(got)).split())
        return norm(key, want) == norm(key, str(got))
    return bool(want == got)


def _matches(item: dict[str, Any], c: Any, norm: Callable[[str, str], str]) -> bool:
    return (
        c.kind == item["kind"]
        and item.get("asserted_by", c.asserted_by.value) == c.asserted_by.value
        and all(_same(k, v, c.attributes.get(k), norm) for k, v in item.get("attributes", {}).items())
    )


def attribute_score(rows: Sequence[dict[str, Any]], app: Any, norm: Callable[[str, str], str]) -> dict[str, Any]:
    """Precision/recall per kind and split of `app`'s heuristic extractor on attribute-labelled sessions."""
    tallies = {name: _Tally.empty() for name in ["all", *dict.fromkeys(r.get("split", "held_out") for r in rows)]}
    misses: list[dict[str, Any]] = []
    false_positives: list[dict[str, Any]] = []
    unwanted: list[dict[str, Any]] = []
    quotes = valid = 0
    for row in rows:
        session, split = to_session(row), tallies[row.get("split", "held_out")]
        predicted = app.extract(session)
        for e in (e for c in predicted for e in c.evidence):
            turn = session.turns[e.turn_index] if e.turn_index is not None else None
            quotes += 1
            valid += turn is not None and e.quote in turn.text and e.role == turn.role and e.session_id == row["id"]
        used: set[int] = set()
        for item in row["expected"]:
            hit = next((i for i, c in enumerate(predicted) if i not in used and _matches(item, c, norm)), None)
            for tally in (tallies["all"], split):
                (tally.tp if hit is not None else tally.fn)[item["kind"]] += 1
            if hit is None:
                misses.append({"session": row["id"], **item})
            else:
                used.add(hit)
        for i, c in enumerate(predicted):
            if i in used or any(_matches(o, c, norm) for o in row.get("optional", [])):
                continue  # an optional item is neither rewarded nor penalised
            for tally in (tallies["all"], split):
                tally.fp[c.kind] += 1
            false_positives.append(
                {"session": row["id"], "kind": c.kind, "attributes": c.attributes, "quote": c.evidence[0].quote}
            )
        unwanted += [
            {"session": row["id"], **n}
            for n in row.get("not_expected", [])
            if any(_matches(n, c, norm) for c in predicted)
        ]
    every = tallies["all"]
    kinds = sorted(set(every.tp) | set(every.fp) | set(every.fn))
    total_unwanted = sum(len(r.get("not_expected", [])) for r in rows)
    return {
        "sessions": len(rows),
        "expected": sum(len(r["expected"]) for r in rows),
        "overall": every.totals(),
        "per_kind": {k: prf(every.tp[k], every.fp[k], every.fn[k]) for k in kinds},
        "per_split": {name: t.totals() for name, t in tallies.items() if name != "all"},
        "per_split_kind": {
            name: {k: prf(t.tp[k], t.fp[k], t.fn[k]) for k in kinds} for name, t in tallies.items() if name != "all"
        },
        "not_expected": {
            "total": total_unwanted,
            "extracted": len(unwanted),
            "correctly_skipped": _ratio(total_unwanted - len(unwanted), total_unwanted),
        },
        "evidence_valid": _ratio(valid, quotes),
        "misses": misses,
        "false_positives": false_positives,
        "unwanted_extracted": unwanted,
    }


def _casefold(_key: str, value: str) -> str:
    return " ".join(value.casefold().split())


def career_quality(fixtures: Path = FIXTURES / "career") -> dict[str, Any]:
    from forethought.apps.career import APP

    return {
        "mode": "heuristic",
        "fixtures": "bench/fixtures/career",
        **attribute_score(read_jsonl(fixtures), APP, _casefold),
    }


def support_normalise(key: str, value: str) -> str:
    from forethought.apps.support import normalise_action

    return normalise_action(value) if key == "action" else _casefold(key, value)


def support_quality(fixtures: Path = FIXTURES / "support") -> dict[str, Any]:
    from forethought.apps.support import APP

    rows = read_jsonl(fixtures)
    return {"mode": "heuristic", "fixtures": "bench/fixtures/support", **attribute_score(rows, APP, support_normalise)}


def attribute_table(report: dict[str, Any]) -> str:
    """The per-kind table over all sets, then one row per set: only `held_out` was never tuned on."""
    splits = [
        [name, *(str(v[k]) for k in ("tp", "fp", "fn", "precision", "recall"))]
        for name, v in report["per_split"].items()
    ]
    return f"{project_table(report)}\n\n{markdown_table(['set', 'tp', 'fp', 'fn', 'precision', 'recall'], splits)}"


# -- registry and entry point ------------------------------------------------------------------
APPS: dict[str, Callable[[], dict[str, Any]]] = {
    "project": project_quality,
    "career": career_quality,
    "support": support_quality,
}
TABLES: dict[str, Callable[[dict[str, Any]], str]] = {
    "project": project_table,
    "career": attribute_table,
    "support": attribute_table,
}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", action="append", choices=sorted(APPS), help="app to measure (repeatable; default all)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    results: dict[str, Any] = json.loads(args.out.read_text("utf-8")) if args.out.exists() else {}
    apps = results.setdefault("apps", {})
    for name in args.app or sorted(APPS):
        report = APPS[name]()
        apps[name] = {"generated_at": now_iso(), "command": command_line(), "machine": machine(), **report}
        print(f"## {name}\n")
        print(TABLES[name](report) if name in TABLES else json.dumps(report, indent=2))
        print()
    write_json(args.out, results)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
