"""Review marks on current records: a person re-confirming a rule, or a read finding its evidence
gone. Each is an audit event (`Action.REVIEWED`, `details.verdict` "confirmed" or "stale", the
reason scrubbed like every text written): the record itself does not change, so a confirmation
renews a rule's review date without a new version, and the trail keeps who confirmed what when.
A rule shared by several subjects (an organisation's) is "overridden" for one of them
(`details.subject`), or "restored" there: the explicit, audited exception that subject takes.
"""

from __future__ import annotations

from typing import Literal

from forethought.domain import Action, AuditEvent, Status, new_id
from forethought.domain.limits import check_name
from forethought.domain.times import utcnow
from forethought.errors import InvalidInput
from forethought.memory import Memory, Scope
from forethought.memory.core import clean_reason
from forethought.store.base import ChangeSet

__all__ = ["Verdict", "note_review"]

Verdict = Literal["confirmed", "stale", "overridden", "restored"]
VERDICTS = ("confirmed", "stale", "overridden", "restored")


def note_review(
    memory: Memory,
    scope: Scope,
    record_id: str,
    verdict: Verdict,
    *,
    reason: str | None = None,
    subject: str | None = None,
) -> AuditEvent:
    """Mark an active record confirmed (renewing its review date) or stale (queued for a person);
    a shared rule "overridden" (or "restored") for the subject named `subject`."""
    if verdict not in VERDICTS:
        raise InvalidInput(f"verdict: {verdict!r} is not one of {', '.join(VERDICTS)}")
    if (subject is None) != (verdict in ("confirmed", "stale")):
        raise InvalidInput("subject: names the subject an override is for, and only then")
    space = scope.require()
    record = memory.store.records.get(space.id, record_id)
    if record.status is not Status.ACTIVE:
        raise InvalidInput(f"{record.handle} is {record.status.value}: only a current rule is reviewed")
    event = AuditEvent(
        id=new_id(),
        space_id=space.id,
        action=Action.REVIEWED,
        actor=memory.actor,
        at=utcnow(),
        record_id=record.id,
        lineage_id=record.lineage_id,
        reason=clean_reason(reason),
        details={"verdict": verdict, **({"subject": check_name(subject, field="subject")} if subject else {})},
    )
    memory.store.records.apply(ChangeSet(space.id, events=[event]))
    return event
