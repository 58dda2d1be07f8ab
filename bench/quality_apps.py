"""Support lifecycle and career profile on their blind sets: histories imported in order, scored
on what the space then holds (active records: the apps approve their own customers' and students'
words on arrival; nothing pending is approved here).

Support: each history goes to `scope("support", customer, workspace=workspace)`. A labelled action
is found by evidence: the active records whose quote overlaps one of the action's evidence
quotes; their `action` attributes name it, and every record of the space with one of those names
(or a regression naming none) makes its lifecycle. The stored status, in this order:
`succeeded_then_regressed` (a success, then a regression), `conflict_final_<last>` (both failed
and succeeded outcomes), `failed`, `succeeded` (never a label), `attempted_no_outcome` (an
attempt, no outcome), `suggested_only`, else `not_stored`. Outcomes are `outcome_reported.outcome`
("partial" counts as failed) and `resolution_confirmed` naming the action (a success), ordered by
session date then turn. Resolution: stored when the space holds an active `resolution_confirmed`.
A second lifecycle figure counts pending candidates too: the validator flags every agent-asserted
candidate `agent_only`, and a flagged candidate is never approved on arrival, so the agent's
suggestions wait in the inbox although the app's review approves them.

Career: a labelled skill is found when an active skill record's evidence overlaps its quote with
the same `has`; precision is over the active skill records. An application is found when an
application record (active or superseded) names the company (case-insensitive, equal or one
containing the other, 4+ characters) or quotes one of its timeline quotes; its current status is the latest active one's
(`offered` read as `offer`; an application never stored is right only when labelled
`interested`). Not-the-student: active records quoting a third party's or the advisor's words.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.quality_common import Row, all_records, norm, quotes_overlap, ratio, read_jsonl, read_turns
from forethought import Forethought, Scope
from forethought.domain import Record, Status

_OUTCOME = {"failed": "failed", "partial": "failed", "succeeded": "succeeded"}
_CAREER_STATUS = {"offered": "offer"}


@contextmanager
def _fresh(embedder: str) -> Iterator[Forethought]:
    with tempfile.TemporaryDirectory() as tmp, Forethought.open(Path(tmp) / "q.db", embedder=embedder) as memory:
        yield memory


def _import(memory: Forethought, scope: Scope, folder: Path, history: dict[str, Any]) -> None:
    for n, session in enumerate(sorted(history["sessions"], key=lambda s: s["started_at"])):
        turns = read_turns(folder / session["file"], human=session.get("human"), when=session["started_at"])
        memory.submit_session(scope, turns, title=f"{history['id']}-{n}", source="import")


# -- support -------------------------------------------------------------------------------------
def _order(record: Record) -> tuple[Any, int]:
    return record.occurred_at, min((e.turn_index or 0 for e in record.evidence), default=0)


def stored_status(records: list[Record], evidence: list[str]) -> str:
    """The lifecycle status the space holds for an action found by its evidence quotes."""
    names = {r.attributes.get("action") for r in records if quotes_overlap(r, evidence)} - {None}
    if not names:
        return "not_stored"
    mine = sorted((r for r in records if r.attributes.get("action") in names), key=_order)
    outcomes = [(_order(r), _OUTCOME[r.attributes["outcome"]]) for r in mine if r.kind == "outcome_reported"]
    outcomes += [(_order(r), "succeeded") for r in mine if r.kind == "resolution_confirmed"]
    outcomes.sort()
    values = [value for _, value in outcomes]
    first_success = next((at for at, value in outcomes if value == "succeeded"), None)
    regressions = [r for r in records if r.kind == "regression" and r.attributes.get("action") in (*names, None)]
    if first_success is not None and any(_order(r) > first_success for r in regressions):
        return "succeeded_then_regressed"
    if {"failed", "succeeded"} <= set(values):
        return f"conflict_final_{values[-1]}"
    if values:
        return values[-1]
    if any(r.kind == "action_attempted" for r in mine):
        return "attempted_no_outcome"
    return "suggested_only" if any(r.kind == "action_suggested" for r in mine) else "not_stored"


def score_support(folder: Path, embedder: str = "minilm") -> dict[str, Any]:
    histories = read_jsonl(folder / "labels.jsonl")
    actions = right = right_pending = resolutions_right = unconfirmed_stored = 0
    wrong: list[str] = []
    wrong_resolution: list[str] = []
    confusion: Counter[str] = Counter()
    with _fresh(embedder) as memory:
        for history in histories:
            scope = memory.scope("support", history["customer"], workspace=history["workspace"])
            _import(memory, scope, folder, history)
            records = all_records(memory, scope)
            with_pending = all_records(memory, scope, (Status.ACTIVE, Status.CANDIDATE))
            for i, action in enumerate(history["actions"]):
                actions += 1
                status = stored_status(records, action["evidence"])
                ok = status == action["status"]
                right += ok
                if not ok:
                    confusion[f"{action['status']} -> {status}"] += 1
                right_pending += stored_status(with_pending, action["evidence"]) == action["status"]
                if not ok:
                    wrong.append(f"{history['id']}#a{i}")
            stored = any(r.kind == "resolution_confirmed" for r in records)
            confirmed = bool(history["resolution"]["confirmed"])
            resolutions_right += stored == confirmed
            unconfirmed_stored += stored and not confirmed
            if stored != confirmed:
                wrong_resolution.append(history["id"])
    return {
        "histories": len(histories),
        "actions": actions,
        "lifecycle_accuracy": ratio(right, actions),
        "lifecycle_accuracy_pending_included": ratio(right_pending, actions),
        "resolution_accuracy": ratio(resolutions_right, len(histories)),
        "unconfirmed_resolutions_stored": unconfirmed_stored,
        "confusions": dict(confusion.most_common()),
        "wrong_lifecycle_ids": wrong,
        "wrong_resolution_ids": wrong_resolution,
    }


# -- career --------------------------------------------------------------------------------------
def _same_company(a: str, b: str) -> bool:
    """Equal, or one contains the other when the shorter has 4+ characters ("Mistral" / "Mistral AI")."""
    x, y = sorted((norm(a), norm(b)), key=len)
    return bool(x) and (x == y or (len(x) >= 4 and x in y))


def _application_records(records: list[Record], application: dict[str, Any]) -> list[Record]:
    quotes = [step["quote"] for step in application["timeline"]]
    return [
        r
        for r in records
        if r.kind == "application"
        and (_same_company(str(r.attributes.get("company", "")), application["company"]) or quotes_overlap(r, quotes))
    ]


def _current_status(found: list[Record]) -> str | None:
    active = sorted((r for r in found if r.status is Status.ACTIVE), key=lambda r: (r.occurred_at, r.recorded_at))
    if not active:
        return None
    status = str(active[-1].attributes.get("status"))
    return _CAREER_STATUS.get(status, status)


def _score_student(memory: Forethought, history: dict[str, Any], tally: dict[str, Any]) -> None:
    scope = memory.scope("career", history["student"])
    active = all_records(memory, scope)
    skills = [r for r in active if r.kind == "skill"]
    matched: set[str] = set()
    for i, skill in enumerate(history["skills"]):
        hits = [r for r in skills if quotes_overlap(r, [skill["quote"]]) and r.attributes.get("has") == skill["has"]]
        matched |= {r.id for r in hits}
        tally["skills"] += 1
        tally["skills_found"] += bool(hits)
        if not hits:
            tally["missed_skills"].append(f"{history['id']}#s{i}")
        if not skill["has"] and any(quotes_overlap(r, [skill["quote"]]) and r.attributes.get("has") for r in skills):
            tally["negations_stored_as_has"] += 1
    tally["skill_records"] += len(skills)
    tally["skill_records_right"] += len(matched)
    stored = all_records(memory, scope, (Status.ACTIVE, Status.SUPERSEDED))
    for i, application in enumerate(history["applications"]):
        found = _application_records(stored, application)
        tally["applications"] += 1
        tally["applications_found"] += bool(found)
        status = _current_status(found) or "interested"
        tally["status_right"] += status == application["current_status"]
        if not found or status != application["current_status"]:
            tally["wrong_applications"].append(f"{history['id']}#a{i}")
    quotes = [x["quote"] for x in history["not_the_student"]]
    leaked = [r for r in active if quotes and quotes_overlap(r, quotes)]
    tally["not_the_student_stored"] += len(leaked)
    if leaked:
        tally["not_the_student_ids"].append(history["id"])


def score_career(folder: Path, embedder: str = "minilm") -> dict[str, Any]:
    histories = read_jsonl(folder / "labels.jsonl")
    counts = ("skills", "skills_found", "skill_records", "skill_records_right", "negations_stored_as_has",
              "applications", "applications_found", "status_right", "not_the_student_stored")  # fmt: skip
    tally: dict[str, Any] = {**dict.fromkeys(counts, 0), "missed_skills": [], "wrong_applications": [],
                             "not_the_student_ids": []}  # fmt: skip
    with _fresh(embedder) as memory:
        for history in histories:
            _import(memory, memory.scope("career", history["student"]), folder, history)
            _score_student(memory, history, tally)
    return {
        "histories": len(histories),
        "skill_recall": ratio(tally["skills_found"], tally["skills"]),
        "skill_precision": ratio(tally["skill_records_right"], tally["skill_records"]),
        "application_recall": ratio(tally["applications_found"], tally["applications"]),
        "current_status_accuracy": ratio(tally["status_right"], tally["applications"]),
        **{k: tally[k] for k in counts},
        "missed_skill_ids": tally["missed_skills"],
        "wrong_application_ids": tally["wrong_applications"],
        "not_the_student_history_ids": tally["not_the_student_ids"],
    }


def rows(support: dict[str, Any], career: dict[str, Any]) -> list[Row]:
    s, c = support, career
    return [
        Row("support", "lifecycle accuracy", s["lifecycle_accuracy"], s["actions"]),
        Row("support", "lifecycle accuracy, pending candidates too", s["lifecycle_accuracy_pending_included"],
            s["actions"]),
        Row("support", "resolution confirmed, stored = labelled", s["resolution_accuracy"], s["histories"]),
        Row("support", "unconfirmed resolutions stored", s["unconfirmed_resolutions_stored"], s["histories"]),
        Row("career", "skill precision", c["skill_precision"], c["skill_records"]),
        Row("career", "skill recall", c["skill_recall"], c["skills"]),
        Row("career", "negations stored as has", c["negations_stored_as_has"], c["skills"]),
        Row("career", "application recall", c["application_recall"], c["applications"]),
        Row("career", "current-status accuracy", c["current_status_accuracy"], c["applications"]),
        Row("career", "not-the-student records stored", c["not_the_student_stored"], c["histories"]),
    ]  # fmt: skip


def failing(support: dict[str, Any], career: dict[str, Any]) -> dict[str, list[str]]:
    return {
        "support: wrong lifecycle (history#action)": support["wrong_lifecycle_ids"],
        "support: wrong resolution": support["wrong_resolution_ids"],
        "career: missed skills (history#skill)": career["missed_skill_ids"],
        "career: wrong applications (history#application)": career["wrong_application_ids"],
        "career: not-the-student stored": career["not_the_student_history_ids"],
    }
