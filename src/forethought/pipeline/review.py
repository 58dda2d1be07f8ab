"""Review: candidates enter the inbox (or are approved by the app's policy), people decide.

Submitting a session's candidates is one transaction: relation-labelled candidates are written
as `candidate` records (those the app's policy auto-approves move on to `active` in the same
transaction, with their own audit event), duplicates add their evidence to the record they
repeat instead of creating one, and every validator rejection is kept as a `rejected` record
with its rule and reason (secrets scrubbed) so the inbox can show what was filtered and why.

Inbox rules:
- a flagged candidate (instruction-like text) cannot be approved until it is edited;
- approving a candidate that supersedes a record retires that record in the same transaction;
- a candidate that conflicts with a record needs a choice: supersede it, or keep both;
- bulk approval takes unflagged, non-conflicting candidates (high-confidence: ≥ 0.8 and new only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from forethought.apps.base import App, Review
from forethought.domain import (
    Action,
    AuditEvent,
    Evidence,
    Provenance,
    Record,
    Relation,
    RelationLabel,
    Space,
    Status,
    limits,
    new_id,
    transition,
)
from forethought.domain.candidates import Candidate, Flag, Rejection
from forethought.domain.times import utcnow
from forethought.errors import InvalidInput
from forethought.memory import Memory, Scope
from forethought.memory.core import clean_reason
from forethought.memory.writing import Draft, created_event, new_record
from forethought.pipeline.relate import relate
from forethought.store.base import ChangeSet

__all__ = [
    "AUTO_ACTOR",
    "HIGH_CONFIDENCE",
    "Submission",
    "SubmittedItem",
    "approve",
    "approve_all",
    "build_record",
    "submit",
]

AUTO_ACTOR = "policy:auto"
VALIDATOR_ACTOR = "validator"
HIGH_CONFIDENCE = 0.8
Outcome = Literal["pending", "approved", "merged", "rejected"]
ConflictChoice = Literal["supersede", "keep_both"]


@dataclass(frozen=True)
class SubmittedItem:
    record: Record  # the candidate record, or for a duplicate the record that got the evidence
    relation: Relation
    outcome: Outcome


@dataclass(frozen=True)
class Submission:
    items: list[SubmittedItem] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        return sum(1 for item in self.items if item.outcome == outcome)


def build_record(
    app: App,
    space: Space,
    candidate: Candidate,
    relation: Relation | None,
    *,
    occurred_at: datetime,
    source: str,
    scrub: Callable[[str], str],
    status: Status = Status.CANDIDATE,
) -> Record:
    """The record a validated candidate becomes (scrubbed, its check patterns vetted), not yet written."""
    draft = Draft(
        kind=candidate.kind,
        statement=scrub(candidate.statement),
        tags=tuple(candidate.tags),
        attributes=candidate.attributes,
        evidence=tuple(e.model_copy(update={"quote": scrub(e.quote)}) for e in candidate.evidence),
        provenance=Provenance(
            asserted_by=candidate.asserted_by,
            extractor=candidate.extractor,
            source=source,
            modality=candidate.modality,
        ),
        confidence=candidate.confidence,
    )
    # A model's candidate carries no patterns: the app reads them from the statement, as for a retain.
    check = candidate.check if candidate.check is not None else app.check_patterns(candidate.kind, draft.statement)
    check = limits.check_patterns(check) if check is not None else None  # vetted: patterns run on every draft
    supersedes = (
        (relation.target_id,) if relation and relation.label is RelationLabel.SUPERSEDES and relation.target_id else ()
    )
    record = new_record(space.id, draft, status=status, occurred_at=occurred_at, now=utcnow(), supersedes=supersedes)
    return record.model_copy(
        update={"flags": tuple(f.value for f in candidate.flags), "relation": relation, "check": check}
    )


def _evidence_event(record: Record, actor: str, quotes: int) -> AuditEvent:
    return AuditEvent(
        id=new_id(),
        space_id=record.space_id,
        action=Action.EVIDENCE_ADDED,
        actor=actor,
        at=utcnow(),
        record_id=record.id,
        lineage_id=record.lineage_id,
        details={"quotes": quotes},
    )


def _auto(app: App, candidate: Candidate, relation: Relation) -> bool:
    return (
        app.review(candidate) is Review.AUTO
        and not candidate.flags
        and relation.label in (RelationLabel.NEW, RelationLabel.REFINES, RelationLabel.SUPERSEDES)
    )


def submit(
    memory: Memory,
    scope: Scope,
    candidates: Sequence[Candidate],
    rejections: Sequence[Rejection],
    *,
    occurred_at: datetime,
    source: str,
    scrub: Callable[[str], str] = lambda text: text,
) -> Submission:
    app, space = scope.app, scope.space()
    relations = relate(memory, scope, candidates)
    submission = Submission(rejected=list(rejections))
    new: list[Record] = []
    transitions: list[tuple[Record, Record]] = []
    events: list[AuditEvent] = []
    evidence: list[tuple[str, Sequence[Evidence]]] = []
    retired: set[str | None] = set()
    for candidate, relation in zip(candidates, relations, strict=True):
        if relation.label is RelationLabel.DUPLICATE and relation.target_id:
            target = memory.store.records.get(space.id, relation.target_id)
            evidence.append((target.id, candidate.evidence))
            events.append(_evidence_event(target, memory.actor, len(candidate.evidence)))
            submission.items.append(SubmittedItem(target, relation, "merged"))
            continue
        record = build_record(app, space, candidate, relation, occurred_at=occurred_at, source=source, scrub=scrub)
        new.append(record)
        events.append(created_event(record, memory.actor))
        if not _auto(app, candidate, relation):
            submission.items.append(SubmittedItem(record, relation, "pending"))
            continue
        active, event = transition(
            record,
            Status.ACTIVE,
            actor=AUTO_ACTOR,
            at=utcnow(),
            reason=f"{app.name} policy approves {record.kind} stated by the {candidate.asserted_by.value}",
        )
        transitions.append((record, active))
        events.append(event)
        if relation.target_id not in retired:  # two candidates of one session can replace one record
            retiring = _retire(memory, space.id, relation, active, events, actor=AUTO_ACTOR)
            retired.update(target.id for target, _ in retiring)
            transitions.extend(retiring)
        submission.items.append(SubmittedItem(active, relation, "approved"))
    for rejection in rejections:
        candidate = rejection.candidate
        record = build_record(app, space, candidate, None, occurred_at=occurred_at, source=source, scrub=scrub)
        record = record.model_copy(update={"flags": (*record.flags, f"validator:{rejection.rule}")})
        gone, event = transition(
            record,
            Status.REJECTED,
            actor=VALIDATOR_ACTOR,
            at=utcnow(),
            reason=f"{rejection.rule}: {scrub(rejection.reason)}",
        )
        new.append(record)
        events.extend([created_event(record, VALIDATOR_ACTOR), event])
        transitions.append((record, gone))
    memory.store.records.apply(
        ChangeSet(space.id, inserts=memory.index(new), transitions=transitions, events=events, evidence=evidence)
    )
    return submission


def _retire(
    memory: Memory,
    space_id: str,
    relation: Relation | None,
    new: Record,
    events: list[AuditEvent],
    *,
    actor: str,
    force: bool = False,
) -> list[tuple[Record, Record]]:
    """The transition retiring the record `new` supersedes, if it is still active."""
    if relation is None or not relation.target_id:
        return []
    if relation.label is not RelationLabel.SUPERSEDES and not force:
        return []
    target = memory.store.records.get(space_id, relation.target_id)
    if target.status is not Status.ACTIVE:
        return []  # already retired by someone else: nothing left to supersede
    when = max(new.occurred_at, target.occurred_at)
    retired, event = transition(
        target,
        Status.SUPERSEDED,
        actor=actor,
        at=utcnow(),
        reason=f"superseded by {new.handle}",
        valid_to=when,
        superseded_by=new.id,
    )
    events.append(event)
    return [(target, retired)]


def _chosen_supersession(memory: Memory, space_id: str, candidate: Record, target_ref: str) -> Record:
    """The candidate with the reviewer's choice of the record it replaces as its relation."""
    target = memory.store.records.get(space_id, target_ref)
    if target.status is not Status.ACTIVE:
        raise InvalidInput(f"{target.handle} is {target.status.value}; only an active record can be superseded")
    if target.id == candidate.id:
        raise InvalidInput("a candidate cannot supersede itself")
    chosen = Relation(label=RelationLabel.SUPERSEDES, target_id=target.id, reason=f"reviewer: replaces {target.handle}")
    return candidate.model_copy(update={"relation": chosen})


def approve(
    memory: Memory,
    scope: Scope,
    record_id: str,
    *,
    conflict: ConflictChoice | None = None,
    reason: str | None = None,
    supersedes: str | None = None,
) -> Record:
    target_space = scope.require()
    reason = clean_reason(reason)
    record = memory.store.records.get(target_space.id, record_id)
    if Flag.INJECTION.value in record.flags:
        raise InvalidInput(f"{record.handle} is flagged as instruction-like text; edit it before approving")
    if supersedes is not None:
        record = _chosen_supersession(memory, target_space.id, record, supersedes)
        conflict = "supersede"
    relation = record.relation
    if relation is not None and relation.label is RelationLabel.CONFLICTS and conflict is None:
        other = memory.store.records.get(target_space.id, relation.target_id) if relation.target_id else None
        raise InvalidInput(
            f"{record.handle} conflicts with {other.handle if other else 'a record'}: "
            "approve it with conflict='supersede' or conflict='keep_both'"
        )
    active, event = transition(record, Status.ACTIVE, actor=memory.actor, at=utcnow(), reason=reason)
    events = [event]
    force = conflict == "supersede"
    retire = (
        []
        if conflict == "keep_both"
        else _retire(memory, target_space.id, relation, active, events, actor=memory.actor, force=force)
    )
    memory.store.records.apply(ChangeSet(target_space.id, transitions=[(record, active), *retire], events=events))
    return memory.store.records.get(target_space.id, active.id)  # as stored


def approve_all(memory: Memory, scope: Scope, *, high_confidence: bool = False) -> list[Record]:
    """Approve every pending candidate that is unflagged and conflict-free (see module docstring)."""
    pending = memory.list_records(scope, statuses=(Status.CANDIDATE,), limit=1000)
    approved = []
    for record in pending:
        label = record.relation.label if record.relation else RelationLabel.NEW
        if record.flags or label is RelationLabel.CONFLICTS:
            continue
        if high_confidence and (record.confidence < HIGH_CONFIDENCE or label is not RelationLabel.NEW):
            continue
        approved.append(approve(memory, scope, record.id, reason="bulk approval"))
    return approved
