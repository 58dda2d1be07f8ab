"""Building records and the index payload that goes with them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from forethought.domain import CheckPatterns, Evidence, Provenance, Record, Status, handle_for, new_id
from forethought.recall.text import search_text, terms

__all__ = ["Draft", "IndexPayload", "index_payload", "new_record", "next_version"]


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
