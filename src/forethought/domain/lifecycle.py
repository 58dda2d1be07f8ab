"""The record lifecycle: which status changes are allowed, and the audit event each one writes.

    candidate ──approve──▶ active ──supersede──▶ superseded
        │                    └─────retract────▶ retracted
        └──────reject──────▶ rejected

Nothing else: a rejected, retracted or superseded record never comes back (restate it instead).
"""

from __future__ import annotations

from datetime import datetime

from forethought.domain.audit import Action, AuditEvent
from forethought.domain.ids import new_id
from forethought.domain.records import Record, Status
from forethought.errors import InvalidTransition

__all__ = ["ALLOWED", "check_transition", "transition"]

ALLOWED: dict[Status, frozenset[Status]] = {
    Status.CANDIDATE: frozenset({Status.ACTIVE, Status.REJECTED}),
    Status.ACTIVE: frozenset({Status.SUPERSEDED, Status.RETRACTED}),
    Status.SUPERSEDED: frozenset(),
    Status.RETRACTED: frozenset(),
    Status.REJECTED: frozenset(),
}


def check_transition(current: Status, target: Status) -> None:
    if target not in ALLOWED[current]:
        allowed = ", ".join(sorted(s.value for s in ALLOWED[current])) or "nothing"
        raise InvalidTransition(f"a {current.value} record cannot become {target.value} (allowed: {allowed})")


def transition(
    record: Record,
    target: Status,
    *,
    actor: str,
    at: datetime,
    reason: str | None = None,
    valid_to: datetime | None = None,
    superseded_by: str | None = None,
) -> tuple[Record, AuditEvent]:
    """The record after the change, and the audit event that must be written with it."""
    check_transition(record.status, target)
    update: dict[str, object] = {"status": target}
    if target is Status.SUPERSEDED:
        update["valid_to"] = valid_to or at
        update["superseded_by"] = superseded_by
    elif target is Status.RETRACTED:
        update["valid_to"] = valid_to or at
    changed = record.model_copy(update=update)
    event = AuditEvent(
        id=new_id(),
        space_id=record.space_id,
        action=Action.STATUS_CHANGED,
        actor=actor,
        at=at,
        record_id=record.id,
        lineage_id=record.lineage_id,
        from_status=record.status.value,
        to_status=target.value,
        reason=reason,
        details={"superseded_by": superseded_by} if superseded_by else {},
    )
    return changed, event
