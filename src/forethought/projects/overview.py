"""A project at a glance: the rules in force by area, what waits for review, what is due for
re-confirmation, what changed last, the source documents filed most recently, and what the
project inherits from its organisation. Every figure comes from the same functions the rulebook,
inbox, stale queue and import pages use, so the overview never disagrees with them.

Counts are bounded: the inbox is counted up to `MAX_COUNTED` candidates (then "more than"), the
rulebook up to its own limit (`rulebook.MAX_RULES`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from forethought.domain import Record, Session, Status
from forethought.facade import Forethought, Scope
from forethought.projects.org import ORG, org_scope, overrides
from forethought.projects.rulebook import MAX_RULES, Change, area_of, build_rulebook, changes
from forethought.projects.stale import REVIEW_DAYS, review_queue

__all__ = ["MAX_COUNTED", "AreaSummary", "Overview", "overview"]

MAX_COUNTED = 200  # inbox candidates counted exactly; past it the overview says "more than"
LATEST_CHANGES = 8
LATEST_DOCUMENTS = 8
_SESSIONS_READ = 50  # the newest sessions looked at for source documents
_BEGINNING = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class AreaSummary:
    """The rules in force in one area: how many, and the one that came into force last."""

    area: str
    count: int
    newest: Record


@dataclass(frozen=True)
class Overview:
    project: str
    rules: int
    rules_truncated: bool  # more in force than one rulebook holds
    areas: list[AreaSummary]  # most rules first, general last among equals
    pending: int
    pending_more: bool  # more than MAX_COUNTED candidates wait
    stale: int
    next_due: datetime | None  # the soonest review date in the stale queue
    changes: list[Change]  # newest first
    documents: list[Session]  # source documents (commits, ADRs, rule files), newest first
    org_rules: int  # organisation rules in force (inherited unless overridden)
    org_overridden: int


def overview(memory: Forethought, scope: Scope, *, days: int = REVIEW_DAYS) -> Overview:
    """The overview of the project `scope` (nothing is written)."""
    book = build_rulebook(memory, scope)
    pending = memory.list_records(scope, statuses=(Status.CANDIDATE,), limit=MAX_COUNTED + 1)
    queue = review_queue(memory, scope, days=days)
    found = changes(memory, scope, _BEGINNING)
    sessions = memory.list_sessions(scope, limit=_SESSIONS_READ)
    documents = [s for s in sessions if s.metadata.get("ref")][:LATEST_DOCUMENTS]
    org_rules, org_overridden = 0, 0
    if scope.subject != ORG:
        org = org_scope(memory, scope)
        org_rules = len(memory.list_records(org, limit=MAX_RULES))
        org_overridden = len(overrides(memory, scope)) if org_rules else 0
    return Overview(
        project=scope.subject,
        rules=len(book.rules),
        rules_truncated=book.truncated,
        areas=_areas(book.rules),
        pending=min(len(pending), MAX_COUNTED),
        pending_more=len(pending) > MAX_COUNTED,
        stale=len(queue),
        next_due=min((s.due for s in queue), default=None),
        changes=found[::-1][:LATEST_CHANGES],
        documents=documents,
        org_rules=org_rules,
        org_overridden=org_overridden,
    )


def _areas(rules: list[Record]) -> list[AreaSummary]:
    by_area: dict[str, list[Record]] = {}
    for record in rules:
        by_area.setdefault(area_of(record), []).append(record)
    summaries = [
        AreaSummary(area, len(records), max(records, key=lambda r: (r.occurred_at, r.id)))
        for area, records in by_area.items()
    ]
    return sorted(summaries, key=lambda s: (-s.count, s.area == "general", s.area))
