"""Project brief and check on the blind set, measured apart from extraction.

Every labelled rule is stored directly as an active record of its project, as a perfect extractor
would file it: the rule's statement, its quote as evidence (the session's id, the turn, the user's
role or, for an agent-confirmed rule, the agent's), dated by the session's `started_at`. The
set's kinds are the app's own; the free-word area becomes one of the app's areas (`AREA`,
else inferred from the statement by the app) and its `area:` tag; checkable kinds carry the check
patterns the app derives from the statement, as its extractor does. A rule that supersedes an
earlier one is retained as a candidate and approved with `supersedes=` (the reviewer's path:
`Forethought.supersede` takes neither evidence nor check patterns).

Brief (`tasks.jsonl`, default limit 5): precision = |briefed ∩ (must ∪ may)| / |briefed|, recall =
|briefed ∩ must| / |must|, both micro over tasks; forbidden-task rate = share of tasks whose brief
holds a must-not rule. Check (`drafts.jsonl`, records recalled for the draft, which is checked with
its file path, as an agent knows the file it writes; a `.diff` draft as a unified diff, each file
with its own path): a finding is right when it cites the labelled rule, its excerpt and the
labelled line overlap (normalised, either way) and, in a diff, it names the labelled file;
precision over findings, recall over labelled violations.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.quality_common import Row, overlaps, ratio, read_jsonl
from forethought import Forethought
from forethought.apps.project.areas import infer_area
from forethought.apps.project.kinds import CHECKABLE
from forethought.apps.project.patterns import derive_patterns
from forethought.apps.project.slots import attributes
from forethought.domain import Evidence, Role, Status

# The labels use the project app's eight kinds; attributes come from the app's own slot filler.
AREA = {
    "auth": "auth", "security": "auth", "payments": "payments", "billing": "payments", "db": "db",
    "database": "db", "data": "db", "migrations": "db", "deploy": "deploy", "build": "deploy", "ci": "deploy",
    "release": "deploy", "testing": "testing", "tests": "testing", "logging": "observability",
    "observability": "observability", "metrics": "observability", "infra": "infra", "ui": "frontend",
    "frontend": "frontend", "api": "api", "process": "process", "review": "process", "git": "process",
}  # fmt: skip


@dataclass
class Stored:
    """The labelled rules as records: rule id by record id, and how areas were mapped."""

    rule_of: dict[str, str] = field(default_factory=dict)
    record_of: dict[str, str] = field(default_factory=dict)  # record id by rule id
    areas_mapped: int = 0
    areas_inferred: int = 0


def _attributes(kind: str, area: str, rule: dict[str, Any]) -> dict[str, Any]:
    return {**attributes(kind, rule["statement"]), "area": area}


def _store_rule(memory: Forethought, label: dict[str, Any], rule: dict[str, Any], stored: Stored) -> None:
    scope = memory.scope("project", label["project"])
    kind = rule["kind"]
    area = AREA.get(rule["area"].casefold())
    stored.areas_mapped += area is not None
    stored.areas_inferred += area is None
    area = area or infer_area(rule["statement"])
    role = Role.AGENT if rule.get("stated_by") == "agent_confirmed" else Role.USER
    evidence = Evidence(quote=rule["quote"], session_id=label["id"], turn_index=rule.get("turn"), role=role)
    common: dict[str, Any] = {
        "kind": kind,
        "tags": [f"area:{area}"],
        "occurred_at": label["started_at"],
        "attributes": _attributes(kind, area, rule),
        "evidence": [evidence],
        "check": derive_patterns(rule["statement"]) if kind in CHECKABLE else None,
        "source": "import",
    }
    old = stored.record_of.get(rule.get("supersedes") or "")
    if old is None:
        record = memory.retain(scope, rule["statement"], **common).record
    else:
        candidate = memory.retain(scope, rule["statement"], status=Status.CANDIDATE, **common).record
        record = memory.approve(scope, candidate.id, supersedes=old, reason="labelled supersession")
    stored.rule_of[record.id] = rule["id"]
    stored.record_of[rule["id"]] = record.id


def store_rules(memory: Forethought, folder: Path) -> Stored:
    labels = read_jsonl(folder / "labels.jsonl")
    labels.sort(key=lambda label: (label["project"], label.get("started_at") or ""))
    stored = Stored()
    for label in labels:
        for rule in label["rules"]:
            _store_rule(memory, label, rule, stored)
    return stored


def score_brief(memory: Forethought, folder: Path, stored: Stored) -> dict[str, Any]:
    briefed = relevant = must = must_found = forbidden = items = 0
    missed: list[str] = []
    carried: list[str] = []
    tasks = read_jsonl(folder / "tasks.jsonl")
    for task in tasks:
        scope = memory.scope("project", task["project"])
        brief = memory.brief(scope, task["task"], file_paths=task.get("file_paths") or [])
        got = {stored.rule_of.get(item.record.id, "?") for item in brief.used}
        items += len(brief.used)
        briefed += len(got)
        relevant += len(got & {*task["must_apply"], *task["may_apply"]})
        must += len(task["must_apply"])
        must_found += len(got & set(task["must_apply"]))
        if set(task["must_apply"]) - got:
            missed.append(task["id"])
        if got & set(task["must_not_apply"]):
            forbidden += 1
            carried.append(task["id"])
    return {
        "tasks": len(tasks),
        "precision": ratio(relevant, briefed),
        "recall": ratio(must_found, must),
        "forbidden_task_rate": ratio(forbidden, len(tasks)),
        "mean_items": round(items / len(tasks), 2) if tasks else None,
        "briefed": briefed,
        "must": must,
        "tasks_missing_a_must": missed,
        "tasks_carrying_a_must_not": carried,
    }


def _same_finding(rule: str, excerpt: str, path: str | None, wanted: dict[str, Any]) -> bool:
    """A finding is the labelled violation when it cites its rule, its line overlaps the labelled
    one and, in a diff, it names the labelled file."""
    in_file = wanted.get("path") is None or (path or "").removeprefix("b/") == wanted["path"]
    return rule == wanted["rule"] and overlaps(excerpt, wanted["line"]) and in_file


def score_check(memory: Forethought, folder: Path, stored: Stored) -> dict[str, Any]:
    """Precision and recall of the check over every draft, and apart for file drafts and diffs."""
    counts = {form: Counter[str]() for form in ("file", "diff")}
    failing: list[str] = []
    drafts = read_jsonl(folder / "drafts.jsonl")
    for draft in drafts:
        scope = memory.scope("project", draft["project"])
        diff = draft["file"].endswith((".diff", ".patch"))
        text = (folder / draft["file"]).read_text("utf-8")
        report = memory.check(scope, text, diff=True) if diff else memory.check(scope, text, path=draft["file"])
        cited = [(stored.rule_of.get(v.record_id, "?"), v.excerpt, v.path) for v in report.violations]
        wanted = draft["violations"]
        good = [any(_same_finding(r, e, p, w) for w in wanted) for r, e, p in cited]
        hit = [any(_same_finding(r, e, p, w) for r, e, p in cited) for w in wanted]
        c = counts["diff" if diff else "file"]
        c.update(drafts=1, findings=len(cited), right=sum(good), labelled=len(wanted), found=sum(hit),
                 on_must_not_flag=sum(r in draft.get("must_not_flag", []) for r, _, _ in cited))  # fmt: skip
        if not all(good) or not all(hit):
            failing.append(draft["id"])
    total = counts["file"] + counts["diff"]
    return {
        "drafts": len(drafts),
        "precision": ratio(total["right"], total["findings"]),
        "recall": ratio(total["found"], total["labelled"]),
        "findings": total["findings"],
        "violations": total["labelled"],
        "findings_on_must_not_flag": total["on_must_not_flag"],
        "by_form": {
            form: {
                "drafts": c["drafts"],
                "precision": ratio(c["right"], c["findings"]),
                "recall": ratio(c["found"], c["labelled"]),
                "findings": c["findings"],
                "violations": c["labelled"],
            }
            for form, c in counts.items()
            if c["drafts"]
        },
        "failing_draft_ids": failing,
    }


def score_project_read(folder: Path, embedder: str = "minilm") -> dict[str, Any]:
    """Brief and check over the labelled rules stored as records (one fresh store)."""
    with tempfile.TemporaryDirectory() as tmp, Forethought.open(Path(tmp) / "q.db", embedder=embedder) as memory:
        stored = store_rules(memory, folder)
        result = {
            "records": len(stored.rule_of),
            "areas_mapped": stored.areas_mapped,
            "areas_inferred": stored.areas_inferred,
            "brief": score_brief(memory, folder, stored),
            "check": score_check(memory, folder, stored),
        }
    return result


def rows(result: dict[str, Any], app: str = "project") -> list[Row]:
    brief, check = result["brief"], result["check"]
    return [
        Row(app, "brief precision", brief["precision"], brief["briefed"]),
        Row(app, "brief recall (must)", brief["recall"], brief["must"]),
        Row(app, "brief forbidden-task rate", brief["forbidden_task_rate"], brief["tasks"]),
        Row(app, "brief mean items", brief["mean_items"], brief["tasks"]),
        Row(app, "check precision", check["precision"], check["findings"]),
        Row(app, "check recall", check["recall"], check["violations"]),
        Row(app, "check findings on must-not-flag rules", check["findings_on_must_not_flag"], check["drafts"]),
        *(
            Row(
                app,
                f"check {metric} ({form} drafts)",
                part[metric],
                part["findings" if metric == "precision" else "violations"],
            )
            for form, part in check.get("by_form", {}).items()
            if form == "diff"
            for metric in ("precision", "recall")
        ),
    ]


def failing(result: dict[str, Any], app: str = "project") -> dict[str, list[str]]:
    return {
        f"{app} brief: tasks missing a must rule": result["brief"]["tasks_missing_a_must"],
        f"{app} brief: tasks carrying a must-not rule": result["brief"]["tasks_carrying_a_must_not"],
        f"{app} check: failing drafts": result["check"]["failing_draft_ids"],
    }
