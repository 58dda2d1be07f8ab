"""The change sets that replace one record by another, shared by supersede, edit and review."""

from __future__ import annotations

from datetime import datetime

from forethought.domain import Record, Status, transition
from forethought.embed.base import Embedder
from forethought.memory.writing import created_event, index_records
from forethought.store.base import ChangeSet

__all__ = ["replacement"]


def replacement(
    old: Record,
    new: Record,
    status: Status,
    *,
    actor: str,
    embedder: Embedder | None,
    reason: str | None,
    valid_to: datetime | None = None,
) -> ChangeSet:
    """Insert `new` and move `old` to `status` (superseded: valid until `valid_to`, pointing at
    `new`; rejected: a candidate an edit replaced), with both audit events, in one change set."""
    if status is Status.SUPERSEDED:
        after, event = transition(
            old, status, actor=actor, at=new.recorded_at, reason=reason, valid_to=valid_to, superseded_by=new.id
        )
    else:
        after, event = transition(old, status, actor=actor, at=new.recorded_at, reason=reason)
    return ChangeSet(
        old.space_id,
        inserts=index_records([new], embedder),
        transitions=[(old, after)],
        events=[created_event(new, actor), event],
    )
