"""Writing memories: validated drafts, new records and versions, their index payload, and the
one transaction that stores a batch of them (idempotent by external id)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from forethought.domain import (
    Action,
    AuditEvent,
    CheckPatterns,
    Evidence,
    Provenance,
    Record,
    Space,
    Status,
    handle_for,
    limits,
    new_id,
)
from forethought.domain.candidates import Flag
from forethought.domain.times import parse_time, utcnow
from forethought.embed.base import Embedder, Vectors
from forethought.embed.cache import embedded
from forethought.embed.onnx_minilm import MiniLMEmbedder
from forethought.errors import BackendError, Conflict, InvalidInput
from forethought.judge.injection import instruction_like_each
from forethought.store.base import ChangeSet, NewRecord, Store
from forethought.store.scrub import scrub_text
from forethought.text.identifiers import search_text, terms

__all__ = [
    "Draft",
    "IndexPayload",
    "RetainItem",
    "Retained",
    "TimeRef",
    "created_event",
    "first_quote",
    "index_payload",
    "index_records",
    "make_draft",
    "new_record",
    "next_version",
    "retain_drafts",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Draft:
    """The validated content of a record about to be written."""

    kind: str
    statement: str
    tags: tuple[str, ...] = ()
    attributes: dict[str, Any] | None = None
    evidence: tuple[Evidence, ...] = ()
    provenance: Provenance = field(default_factory=Provenance)
    confidence: float = 1.0
    external_id: str | None = None
    # Text said around the statement: indexed for search, never shown as the memory itself.
    context: str | None = None
    check: CheckPatterns | None = None


@dataclass(frozen=True)
class IndexPayload:
    embed_text: str
    search_text: str
    terms: tuple[str, ...]


def index_payload(record: Record) -> IndexPayload:
    """What the indexes get. The context goes to the keyword and term indexes only: embedding it
    too made ingest ~4x slower for no measurable gain in recall (LoCoMo, docs/benchmarks.md)."""
    context = record.context
    searchable = record.statement if not context else f"{record.statement}\n{context}"
    extra = search_text(searchable)
    if context:
        extra = f"{context}\n{extra}" if extra else context
    return IndexPayload(embed_text=record.statement, search_text=extra, terms=tuple(terms(searchable)))


def new_record(
    space_id: str,
    draft: Draft,
    *,
    status: Status,
    occurred_at: datetime,
    now: datetime,
    supersedes: tuple[str, ...] = (),
) -> Record:
    record_id = new_id()
    return Record(
        id=record_id,
        space_id=space_id,
        handle=handle_for(record_id),
        lineage_id=record_id,
        kind=draft.kind,
        statement=draft.statement,
        context=draft.context,
        check=draft.check,
        attributes=draft.attributes or {},
        evidence=draft.evidence,
        provenance=draft.provenance,
        confidence=draft.confidence,
        status=status,
        tags=draft.tags,
        occurred_at=occurred_at,
        recorded_at=now,
        external_id=draft.external_id,
        supersedes=supersedes,
    )


def next_version(old: Record, draft: Draft, *, status: Status, now: datetime) -> Record:
    """A new version of `old` (same lineage); its valid time starts where the old one's did."""
    record_id = new_id()
    return Record(
        id=record_id,
        space_id=old.space_id,
        handle=handle_for(record_id),
        lineage_id=old.lineage_id,
        version=old.version + 1,
        previous_id=old.id,
        kind=draft.kind,
        statement=draft.statement,
        context=old.context,
        attributes=draft.attributes if draft.attributes is not None else old.attributes,
        evidence=draft.evidence or old.evidence,
        provenance=draft.provenance,
        confidence=draft.confidence,
        status=status,
        tags=draft.tags,
        occurred_at=old.occurred_at,
        recorded_at=now,
        supersedes=old.supersedes,
        # A person rewrote it: the instruction-like flag is answered; other marks stay.
        flags=tuple(f for f in old.flags if f != "injection"),
        relation=old.relation,
        check=old.check,
    )


TimeRef = datetime | str | None


@dataclass(frozen=True)
class RetainItem:
    """One memory for `retain_many` (the same fields `retain` takes)."""

    text: str
    kind: str = "note"
    tags: Sequence[str] = ()
    occurred_at: TimeRef = None
    external_id: str | None = None
    attributes: dict[str, Any] | None = None
    context: str | None = None


@dataclass(frozen=True)
class Retained:
    record: Record
    created: bool  # False when an earlier retain with the same external id already made it


def make_draft(
    item: RetainItem,
    *,
    evidence: Sequence[Evidence] = (),
    confidence: float = 1.0,
    provenance: Provenance | None = None,
) -> tuple[Draft, datetime]:
    """The validated draft of an item and its valid time; InvalidInput on anything wrong."""
    if not 0.0 <= confidence <= 1.0:
        raise InvalidInput("confidence: must be between 0 and 1")
    context = (
        None if item.context is None else limits.clean_text(item.context, field="context", limit=limits.MAX_STATEMENT)
    )
    external_id = limits.check_external_id(item.external_id)
    # Scrubbed here as the store will (store/scrub.py), so the record returned is the record
    # stored, and a retried external id finds the first one.
    attributes = limits.check_attributes(item.attributes)
    draft = Draft(
        kind=limits.check_kind(item.kind),
        statement=scrub_text(limits.check_statement(item.text)),
        tags=limits.check_tags(item.tags),
        attributes=json.loads(scrub_text(json.dumps(attributes, ensure_ascii=False))) if attributes else attributes,
        evidence=tuple(evidence),
        provenance=provenance or Provenance(),
        confidence=confidence,
        external_id=None if external_id is None else scrub_text(external_id),
        context=None if context is None else scrub_text(context),
    )
    when = utcnow() if item.occurred_at is None else parse_time(item.occurred_at, field="occurred_at")
    return draft, when


def _texts(record: Record) -> list[str]:
    return [record.statement, record.context or "", *(v for v in record.attributes.values() if isinstance(v, str))]


def instruction_like(record: Record) -> str | None:
    """Why a record's statement, context or attributes read as instructions to a model, or None."""
    return instruction_like_each([_texts(record)])[0]


def gated(record: Record) -> Record:
    """A record whose text reads as instructions to a model is flagged and waits in the inbox,
    whatever status it was retained with (every path into memory passes here)."""
    return gated_all([record])[0]


def gated_all(records: Sequence[Record], *, known: Mapping[str, Vectors] | None = None) -> list[Record]:
    """`gated` for a batch: one judging call for all of them (`known`: vectors of texts already
    embedded with the judge's model, such as the statements just indexed)."""
    verdicts = instruction_like_each([_texts(r) for r in records], known=known)
    out = []
    for record, why in zip(records, verdicts, strict=True):
        if why is not None:
            flags = record.flags if Flag.INJECTION.value in record.flags else (*record.flags, Flag.INJECTION.value)
            record = record.model_copy(update={"flags": flags, "status": Status.CANDIDATE})
        out.append(record)
    return out


def refuse_instructions(record: Record) -> None:
    """InvalidInput when a record about to become active at once reads as instructions to a model."""
    if (hit := instruction_like(record)) is not None:
        raise InvalidInput(
            f"the text reads as instructions to a model ({hit[:60]!r}); memory keeps such text out of prompts:"
            " rephrase it, or retain it as a candidate to review"
        )


def created_event(record: Record, actor: str) -> AuditEvent:
    return AuditEvent(
        id=new_id(),
        space_id=record.space_id,
        action=Action.CREATED,
        actor=actor,
        at=record.recorded_at,
        record_id=record.id,
        lineage_id=record.lineage_id,
        to_status=record.status.value,
        details={"kind": record.kind, "version": record.version, "source": record.provenance.source},
    )


def index_records(records: Sequence[Record], embedder: Embedder | None) -> list[NewRecord]:
    """Each record with what the indexes need: its embedding, exact terms and search text, and
    the embedding of its first evidence quote (the brief's relevance reads it, `record_vectors`).

    When the embedder fails, the records are still written (keyword and term search work at
    once) and an outbox job owes each its vector; `drain_outbox` pays it later.
    """
    payloads = [index_payload(record) for record in records]
    quotes = [first_quote(record) for record in records]
    quoted = [q for q in quotes if q is not None]
    vectors = None
    later = False
    if embedder is not None:
        try:
            vectors = embedded(embedder, [p.embed_text for p in payloads] + quoted)  # texts judged just now are known
        except BackendError as exc:
            log.warning("embedding failed; records kept, vectors queued in the outbox: %s", exc)
            later = True
    out, at = [], len(payloads)
    for i, (record, p) in enumerate(zip(records, payloads, strict=True)):
        evidence = None
        if quotes[i] is not None:
            evidence, at = (None if vectors is None else vectors[at]), at + 1
        out.append(NewRecord(record, None if vectors is None else vectors[i], p.terms, p.search_text,
                             embed_later=later, evidence_vector=evidence))  # fmt: skip
    return out


def first_quote(record: Record) -> str | None:
    """The record's first evidence quote when it says more than the statement (else None: the
    statement's own vector stands for it)."""
    if not record.evidence or record.evidence[0].quote == record.statement:
        return None
    return record.evidence[0].quote


def retain_drafts(
    store: Store,
    embedder: Embedder | None,
    space: Space,
    drafts: list[tuple[Draft, datetime]],
    status: Status,
    *,
    actor: str,
) -> list[Retained]:
    """Write drafts as new records in one transaction, idempotently by external id (a repeated
    id returns the first record; the same id for other content is a Conflict)."""
    results: list[Retained | None] = [None] * len(drafts)
    pending: list[tuple[int, Record]] = []
    seen_external: dict[str, int] = {}
    now = utcnow()
    for i, (draft, when) in enumerate(drafts):
        if draft.external_id is not None:
            existing = store.records.find_by_external_id(space.id, draft.external_id)
            if existing is None and draft.external_id in seen_external:
                existing = pending[seen_external[draft.external_id]][1]
            if existing is not None:
                if existing.statement != draft.statement or existing.kind != draft.kind:
                    raise Conflict(
                        f"external id {draft.external_id!r} already names record {existing.handle} with other content"
                    )
                results[i] = Retained(existing, created=False)
                continue
            seen_external[draft.external_id] = len(pending)
        pending.append((i, new_record(space.id, draft, status=status, occurred_at=when, now=now)))
    if pending:
        inserts = index_records([record for _, record in pending], embedder)
        # The judge reuses the statements' own vectors when they come from the same model.
        known = {n.record.statement: n.vector for n in inserts if n.vector is not None and embedder is not None
                 and embedder.name == MiniLMEmbedder.name}  # fmt: skip
        checked = gated_all([n.record for n in inserts], known=known)
        inserts = [replace(n, record=r) for n, r in zip(inserts, checked, strict=True)]
        pending = list(zip([i for i, _ in pending], checked, strict=True))
        events = [created_event(record, actor) for _, record in pending]
        try:
            store.records.apply(ChangeSet(space.id, inserts=inserts, events=events))
        except Conflict:
            if not any(r.external_id for _, r in pending):
                raise
            # Another process retained the same external id first: take each item again, now
            # that the winner is visible (retain stays idempotent under races).
            return [retain_drafts(store, embedder, space, [d], status, actor=actor)[0] for d in drafts]
        for i, record in pending:
            results[i] = Retained(record, created=True)
    return [r for r in results if r is not None]
