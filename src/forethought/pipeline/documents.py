"""Filing source documents (commits, ADRs, rule files) as sessions whose proposals reach the inbox.

Each document is captured like a transcript — its text the session's turns, secrets scrubbed,
dated when it was written — and what it proposes goes through the same validator, relation and
review policy as anything said in a chat: a team decision still waits for a person. A document
already filed in this space (by `ref`) is not filed again, so an import can be re-run.

- Listed items become candidates of their kind, quoting their turn; `extract=True` documents are
  also read by the app's extractor (a commit message, judged sentence by sentence).
- A document its source marks superseded or deprecated arrives as history, not in the inbox: its
  records are written superseded (linked to the first record of the document that replaced it,
  valid until that one's date) or retracted. Current documents are filed first, so the link holds.
- A revert (`ItemAction.RETRACT`) withdraws what the reverted document gave: its candidates are
  rejected ("reverted in its source"); an active record is never retired without a person — it is
  reported as a proposed retraction, with the audit trail's reason, for the reviewer to confirm.

Every record filed from a document carries `source:<source>` and a `doc:<digest>` tag, so the
records one document gave can be found again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from forethought.apps.base import App
from forethought.domain import Evidence, Modality, Record, RelationLabel, Role, Session, Status, transition
from forethought.domain.candidates import Candidate, Rejection
from forethought.domain.documents import DocumentStatus, ItemAction, SourceDocument, SourceItem
from forethought.domain.times import utcnow
from forethought.errors import InvalidInput
from forethought.llm.base import ChatModel
from forethought.memory import Memory, Scope
from forethought.memory.writing import created_event
from forethought.pipeline.capture import capture_session, scrub
from forethought.pipeline.extract import extract_candidates
from forethought.pipeline.review import Submission, build_record, submit
from forethought.pipeline.validator import validate
from forethought.store.base import ChangeSet

__all__ = ["DocumentImport", "FiledDocument", "Retraction", "doc_tag", "file_documents"]

Outcome = Literal["filed", "history", "known", "skipped"]
_HISTORY = (DocumentStatus.SUPERSEDED, DocumentStatus.DEPRECATED)
MAX_DOCUMENTS = 10_000  # one import; a larger history is imported in ranges (`--since`)


def doc_tag(ref: str) -> str:
    """The tag every record filed from the document `ref` carries (refs hold any character)."""
    return "doc:" + hashlib.sha256(ref.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Retraction:
    """An active record a later document withdrew (a revert): a person confirms it."""

    record: Record
    by_ref: str
    reason: str


@dataclass(frozen=True)
class FiledDocument:
    ref: str
    title: str
    outcome: Outcome
    reason: str | None = None
    session_id: str | None = None
    submission: Submission | None = None
    history: list[Record] = field(default_factory=list)  # records written superseded or retracted


@dataclass(frozen=True)
class DocumentImport:
    documents: list[FiledDocument]
    retractions: list[Retraction] = field(default_factory=list)
    reverted: list[Record] = field(default_factory=list)  # candidates rejected because their source was reverted

    def count(self, outcome: Outcome) -> int:
        return sum(1 for d in self.documents if d.outcome == outcome)

    def records(self, outcome: Literal["pending", "approved", "merged"]) -> list[Record]:
        return [i.record for d in self.documents if d.submission for i in d.submission.items if i.outcome == outcome]

    def rejected(self) -> list[Rejection]:
        return [r for d in self.documents if d.submission for r in d.submission.rejected]


def file_documents(
    memory: Memory,
    scope: Scope,
    documents: Sequence[SourceDocument],
    *,
    model: ChatModel | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> DocumentImport:
    """File `documents` (oldest first within each pass) into the scope's space; see the module."""
    if len(documents) > MAX_DOCUMENTS:
        raise InvalidInput(f"at most {MAX_DOCUMENTS:,} documents an import (import a long history in ranges)")
    space = scope.space()
    known = memory.store.sessions.known_refs(space.id, [d.ref for d in documents])
    current = [d for d in documents if d.status not in _HISTORY]
    history = [d for d in documents if d.status in _HISTORY]
    filed: list[FiledDocument] = []
    retractions: list[Retraction] = []
    reverted: list[Record] = []
    for n, doc in enumerate([*current, *history], start=1):
        if doc.ref in known:
            filed.append(FiledDocument(doc.ref, doc.title, "known", "already imported"))
        elif doc.skipped:
            filed.append(FiledDocument(doc.ref, doc.title, "skipped", doc.skipped))
        else:
            known.add(doc.ref)
            result, withdrawn, proposed = _file(memory, scope, doc, model)
            filed.append(result)
            reverted += withdrawn
            retractions += proposed
        if progress is not None:
            progress(n, len(documents))
    return DocumentImport(filed, retractions, reverted)


def _file(
    memory: Memory, scope: Scope, doc: SourceDocument, model: ChatModel | None
) -> tuple[FiledDocument, list[Record], list[Retraction]]:
    app = scope.app
    metadata = {**doc.metadata, "ref": doc.ref, "source_status": doc.status.value}
    session = capture_session(
        memory, scope, doc.turns, title=doc.title, source=doc.source, created_at=doc.occurred_at, metadata=metadata
    )
    proposals = [i for i in doc.items if i.action is ItemAction.PROPOSE]
    candidates = [_candidate(app, session, doc, item) for item in proposals]
    rejected: list[Rejection] = []
    if doc.extract:
        extraction = extract_candidates(session, app, model)
        candidates += extraction.candidates
        rejected += extraction.rejected
    tags = [f"source:{doc.source}", doc_tag(doc.ref)]
    candidates = [c.model_copy(update={"tags": [*c.tags, *(t for t in tags if t not in c.tags)]}) for c in candidates]
    report = validate(candidates, session, app).validated
    withdrawn, proposed = _retractions(memory, scope, doc)
    when = doc.occurred_at or session.created_at
    if doc.status in _HISTORY:
        records = _history(memory, scope, doc, report.accepted, when)
        submission = submit(memory, scope, [], [*rejected, *report.rejected], occurred_at=when, source=doc.source,
                            scrub=lambda text: scrub(text, app))  # fmt: skip
        return FiledDocument(doc.ref, doc.title, "history", None, session.id, submission, records), withdrawn, proposed
    submission = submit(
        memory,
        scope,
        report.accepted,
        [*rejected, *report.rejected],
        occurred_at=when,
        source=doc.source,
        scrub=lambda text: scrub(text, app),
    )
    return FiledDocument(doc.ref, doc.title, "filed", None, session.id, submission), withdrawn, proposed


def _candidate(app: App, session: Session, doc: SourceDocument, item: SourceItem) -> Candidate:
    statement = item.statement or " ".join(item.quote.split())
    kind = item.kind if item.kind is not None and item.kind in app.kinds else _kind_of(app, session, item)
    attributes = {**(app.slots(kind, statement) or {}), **item.attributes}
    area = attributes.get("area")
    tags = [f"area:{area}"] if isinstance(area, str) and area else []
    if attributes.get("always") is True:
        tags.append("always")
    turn = session.turns[item.turn_index] if 0 <= item.turn_index < len(session.turns) else None
    role = turn.role if turn is not None else Role.USER
    quote = Evidence(quote=item.quote, session_id=session.id, turn_index=item.turn_index, role=role)
    return Candidate(
        kind=kind,
        statement=statement,
        attributes=attributes,
        evidence=[quote],
        confidence=0.8 if doc.status is DocumentStatus.CURRENT else 0.6,
        asserted_by=Role.USER,
        modality=Modality.PROPOSED if doc.status is DocumentStatus.PROPOSED else Modality.DECIDED,
        extractor=f"import:{doc.source}",
        tags=tags,
    )


def _kind_of(app: App, session: Session, item: SourceItem) -> str:
    """The app's own reading of an untyped item (its extractor on the quote alone), else its first kind."""
    turn = session.turns[item.turn_index] if 0 <= item.turn_index < len(session.turns) else session.turns[0]
    view = session.model_copy(update={"turns": (turn.model_copy(update={"text": item.quote}),)})
    found = app.extract(view)
    return found[0].kind if found else next(iter(app.kinds))  # the app's own first kind when it reads nothing


def _history(
    memory: Memory, scope: Scope, doc: SourceDocument, candidates: Sequence[Candidate], when: datetime
) -> list[Record]:
    """The records of a superseded or deprecated document, written as the history they are."""
    app, space = scope.app, scope.space()
    successor = _first_record(memory, scope, doc.superseded_by)
    superseded = doc.status is DocumentStatus.SUPERSEDED
    target = Status.SUPERSEDED if superseded else Status.RETRACTED
    by = f" by {', '.join(doc.superseded_by)}" if doc.superseded_by else ""
    reason = f"{'superseded' + by if superseded else 'deprecated'} in its source ({doc.ref})"
    now = utcnow()
    inserts, transitions, events = [], [], []
    for candidate in candidates:
        record = build_record(app, space, candidate, None, occurred_at=when, source=doc.source,
                              scrub=lambda text: scrub(text, app), status=Status.ACTIVE)  # fmt: skip
        valid_to = max(successor.occurred_at, when) if successor is not None else now
        retired, event = transition(record, target, actor=f"import:{doc.source}", at=now, reason=reason,
                                    valid_to=valid_to, superseded_by=successor.id if successor else None)  # fmt: skip
        inserts.append(record)
        transitions.append((record, retired))
        events += [created_event(record, f"import:{doc.source}"), event]
    if inserts:
        memory.store.records.apply(
            ChangeSet(space.id, inserts=memory.index(inserts), transitions=transitions, events=events)
        )
    return [after for _, after in transitions]


def _first_record(memory: Memory, scope: Scope, refs: Sequence[str]) -> Record | None:
    for ref in refs:
        found = memory.list_records(scope, statuses=(Status.CANDIDATE, Status.ACTIVE), tags=(doc_tag(ref),), limit=1)
        if found:
            return found[0]
    return None


def _retractions(memory: Memory, scope: Scope, doc: SourceDocument) -> tuple[list[Record], list[Retraction]]:
    """What a revert withdraws: pending candidates are rejected, active records proposed for retraction."""
    rejected: list[Record] = []
    proposed: list[Retraction] = []
    for item in doc.items:
        if item.action is not ItemAction.RETRACT or not item.target_ref:
            continue
        reason = f"reverted in its source by {doc.ref}"
        found = memory.list_records(
            scope, statuses=(Status.CANDIDATE, Status.ACTIVE), tags=(doc_tag(item.target_ref),), limit=200
        )
        for record in found:
            if record.status is Status.ACTIVE:
                proposed.append(Retraction(record, doc.ref, reason))
                continue
            if record.relation is not None and record.relation.label is RelationLabel.DUPLICATE:
                continue
            rejected.append(memory.reject(scope, record.id, reason=reason))
    return rejected, proposed
