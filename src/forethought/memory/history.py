"""A record's history: its versions, what it superseded and what superseded it, and their audit."""

from __future__ import annotations

from dataclasses import dataclass, field

from forethought.domain import AuditEvent, Record
from forethought.store.base import Store

__all__ = ["History", "record_history"]

MAX_LINKED = 1000  # a chain longer than this is cut (no real history is; a loop cannot hang us)


@dataclass(frozen=True)
class History:
    """Everything linked to one record: its versions and what it superseded / was superseded by,
    oldest first, and the audit events of those records, newest first."""

    record: Record
    chain: list[Record]
    events: list[AuditEvent] = field(default_factory=list)


def record_history(store: Store, space_id: str, record_id: str) -> History:
    """Walk versions and supersession links in both directions from `record_id`."""
    start = store.records.get(space_id, record_id)
    seen: dict[str, Record] = {}
    frontier = [start]
    while frontier and len(seen) < MAX_LINKED:
        record = frontier.pop()
        if record.id in seen:
            continue
        seen[record.id] = record
        linked = [*store.records.lineage(space_id, record.lineage_id)]
        ids = [*record.supersedes, *([record.superseded_by] if record.superseded_by else [])]
        linked.extend(store.records.get_many(space_id, ids))
        frontier.extend(r for r in linked if r.id not in seen)
    chain = sorted(seen.values(), key=lambda r: (r.recorded_at, r.id))
    events: list[AuditEvent] = []
    for record in chain:
        events.extend(store.audit.events(space_id, record_id=record.id, limit=MAX_LINKED))
    events.sort(key=lambda e: (e.at, e.id), reverse=True)
    return History(record=start, chain=chain, events=events)
