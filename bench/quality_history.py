"""Supersession across imported sessions, and `as_of` over that history, on the project set.

Per project, one space of the project app; every session goes in through `submit_session`, in
time order, dated as its label says, and every pending candidate is approved after it (a
conflicting one with `conflict="supersede"`, as `quality_bugfix.approve_pending` does). Then, for
each labelled rule with `supersedes` (an amendment of an earlier session's rule):
- **proposed**: the amending rule's candidate (a record whose evidence overlaps its quote) was
  related to the old rule's record as `supersedes` or `conflicts`;
- **right**: afterwards the old rule's record is superseded and a current record holds the
  amending quote (the old one no longer current, the new one is);
- **as_of right**: recall `as_of` a moment between the two sessions returns the old rule's record
  and not the amending one, and `as_of` after the amendment returns the amending one and not the
  old (only where both were stored).
Amendments whose old or new rule was never extracted are counted apart (`not stored`): this
measures relation and time, not extraction, which `bench.quality` measures on its own.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.quality_bugfix import approve_pending
from bench.quality_common import Row, overlaps, ratio, read_jsonl, read_turns
from forethought import Forethought, Scope
from forethought.domain import Record, Status
from forethought.domain.records import RelationLabel
from forethought.domain.times import parse_time


@dataclass
class Tally:
    amendments: int = 0
    stored: int = 0
    proposed: int = 0
    right: int = 0
    as_of_checked: int = 0
    as_of_right: int = 0
    not_stored: list[str] = field(default_factory=list)
    not_proposed: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    as_of_wrong: list[str] = field(default_factory=list)


def _holding(records: list[Record], quote: str) -> list[Record]:
    return [r for r in records if any(overlaps(e.quote, quote) for e in r.evidence)]


def _everything(memory: Forethought, scope: Scope) -> list[Record]:
    if scope.existing() is None:
        return []
    return memory.list_records(scope, statuses=list(Status), limit=100_000)


def _recalled_at(memory: Forethought, scope: Scope, text: str, when: Any) -> set[str]:
    return {h.record.id for h in memory.recall(scope, text, k=20, as_of=when).hits}


def score_history(folder: Path, embedder: str = "minilm") -> dict[str, Any]:
    labels = read_jsonl(folder / "labels.jsonl")
    labels.sort(key=lambda label: (label["project"], label.get("started_at") or ""))
    rules = {rule["id"]: (label, rule) for label in labels for rule in label["rules"]}
    tally = Tally()
    imports: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp, Forethought.open(Path(tmp) / "q.db", embedder=embedder) as memory:
        for label in labels:
            scope = memory.scope("project", label["project"])
            turns = read_turns(folder / label["file"], human=label.get("human"), when=label.get("started_at"))
            memory.submit_session(scope, turns, title=label["id"], source="import")
            approve_pending(memory, scope, imports)
        for new_label, rule in rules.values():
            old_id = rule.get("supersedes")
            if not old_id or old_id not in rules:
                continue
            old_label, old_rule = rules[old_id]
            tally.amendments += 1
            scope = memory.scope("project", new_label["project"])
            records = _everything(memory, scope)
            old, new = _holding(records, old_rule["quote"]), _holding(records, rule["quote"])
            if not old or not new:
                tally.not_stored.append(rule["id"])
                continue
            tally.stored += 1
            old_ids = {r.id for r in old}
            related = any(
                r.relation is not None
                and r.relation.target_id in old_ids
                and r.relation.label in (RelationLabel.SUPERSEDES, RelationLabel.CONFLICTS)
                for r in new
            )
            tally.proposed += related
            if not related:
                tally.not_proposed.append(rule["id"])
            retired = all(r.status is not Status.ACTIVE for r in old if r.status is not Status.REJECTED)
            current = any(r.status is Status.ACTIVE for r in new)
            if retired and current:
                tally.right += 1
            else:
                tally.wrong.append(rule["id"])
            _score_as_of(memory, scope, old, new, old_label, new_label, rule, tally)
    return {
        "amendments": tally.amendments,
        "stored": tally.stored,
        "proposed_rate": ratio(tally.proposed, tally.stored),
        "right_rate": ratio(tally.right, tally.stored),
        "as_of_rate": ratio(tally.as_of_right, tally.as_of_checked),
        "as_of_checked": tally.as_of_checked,
        "imports": dict(imports),
        "not_stored": tally.not_stored,
        "not_proposed": tally.not_proposed,
        "wrong": tally.wrong,
        "as_of_wrong": tally.as_of_wrong,
    }


def _score_as_of(
    memory: Forethought,
    scope: Scope,
    old: list[Record],
    new: list[Record],
    old_label: dict[str, Any],
    new_label: dict[str, Any],
    rule: dict[str, Any],
    tally: Tally,
) -> None:
    start, amended = old_label.get("started_at"), new_label.get("started_at")
    if not start or not amended or parse_time(amended) <= parse_time(start):
        return
    between = parse_time(start) + (parse_time(amended) - parse_time(start)) / 2
    after = parse_time(amended) + timedelta(days=1)
    old_ids, new_ids = {r.id for r in old}, {r.id for r in new}
    then = _recalled_at(memory, scope, old[0].statement, between)
    now = _recalled_at(memory, scope, new[0].statement, after)
    tally.as_of_checked += 1
    if then & old_ids and not then & new_ids and now & new_ids and not now & old_ids:
        tally.as_of_right += 1
    else:
        tally.as_of_wrong.append(rule["id"])


def rows(result: dict[str, Any]) -> list[Row]:
    return [
        Row("project", "supersession proposed (amendments stored)", result["proposed_rate"], result["stored"]),
        Row("project", "supersession right after review", result["right_rate"], result["stored"]),
        Row("project", "as_of right over imported history", result["as_of_rate"], result["as_of_checked"]),
        Row("project", "amendments with both rules stored", result["stored"], result["amendments"]),
    ]


def failing(result: dict[str, Any]) -> dict[str, list[str]]:
    return {
        "project history: amendment not stored (old or new rule)": result["not_stored"],
        "project history: supersession not proposed": result["not_proposed"],
        "project history: wrong after review": result["wrong"],
        "project history: as_of wrong": result["as_of_wrong"],
    }
