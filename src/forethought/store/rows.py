"""Mapping between stored rows and domain models, shared by every SQL backend (times as ISO-8601
UTC text, JSON columns as compact text), and what a record's keyword index entry holds."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from forethought.domain import (
    AuditEvent,
    CheckPatterns,
    Evidence,
    Provenance,
    Record,
    Relation,
    Session,
    Space,
    SpaceKey,
    Turn,
)
from forethought.domain.times import format_time, stored_time

__all__ = [
    "AUDIT_COLUMNS",
    "RECORD_COLUMNS",
    "SPACE_COLUMNS",
    "audit_from_row",
    "audit_values",
    "dump_json",
    "keyword_body",
    "record_from_row",
    "record_values",
    "session_from_rows",
    "space_from_row",
]

RECORD_COLUMNS = (
    "id, space_id, handle, lineage_id, version, previous_id, kind, statement, attributes, evidence,"
    " provenance, confidence, status, tags, occurred_at, recorded_at, valid_to, external_id,"
    " supersedes, superseded_by, context, flags, relation, check_patterns"
)
AUDIT_COLUMNS = "id, space_id, action, actor, at, record_id, lineage_id, from_status, to_status, reason, details"


def dump_json(value: Any) -> str:
    """The one JSON encoding of every JSON column (compact, sorted keys, UTF-8 kept)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def keyword_body(record: Record, search_text: str) -> str:
    """What the keyword index sees: the statement, the extra search text, kind and tags."""
    parts = [record.statement, search_text, record.kind.replace("_", " "), " ".join(record.tags)]
    return "\n".join(p for p in parts if p)


def _time(value: datetime | None) -> str | None:
    return None if value is None else format_time(value)


def record_values(record: Record) -> tuple[Any, ...]:
    return (
        record.id,
        record.space_id,
        record.handle,
        record.lineage_id,
        record.version,
        record.previous_id,
        record.kind,
        record.statement,
        dump_json(record.attributes),
        dump_json([e.model_dump(mode="json") for e in record.evidence]),
        dump_json(record.provenance.model_dump(mode="json")),
        record.confidence,
        record.status.value,
        dump_json(list(record.tags)),
        format_time(record.occurred_at),
        format_time(record.recorded_at),
        _time(record.valid_to),
        record.external_id,
        dump_json(list(record.supersedes)),
        record.superseded_by,
        record.context,
        dump_json(list(record.flags)),
        None if record.relation is None else dump_json(record.relation.model_dump(mode="json")),
        None if record.check is None else dump_json(record.check.model_dump(mode="json")),
    )


def record_from_row(row: Sequence[Any]) -> Record:
    return Record(
        id=row[0],
        space_id=row[1],
        handle=row[2],
        lineage_id=row[3],
        version=row[4],
        previous_id=row[5],
        kind=row[6],
        statement=row[7],
        attributes=json.loads(row[8]),
        evidence=tuple(Evidence.model_validate(e) for e in json.loads(row[9])),
        provenance=Provenance.model_validate(json.loads(row[10])),
        confidence=row[11],
        status=row[12],
        tags=tuple(json.loads(row[13])),
        occurred_at=stored_time(row[14]),
        recorded_at=stored_time(row[15]),
        valid_to=None if row[16] is None else stored_time(row[16]),
        external_id=row[17],
        supersedes=tuple(json.loads(row[18])),
        superseded_by=row[19],
        context=row[20],
        flags=tuple(json.loads(row[21])),
        relation=None if row[22] is None else Relation.model_validate(json.loads(row[22])),
        check=None if row[23] is None else CheckPatterns.model_validate(json.loads(row[23])),
    )


def audit_values(event: AuditEvent) -> tuple[Any, ...]:
    return (
        event.id,
        event.space_id,
        event.action.value,
        event.actor,
        format_time(event.at),
        event.record_id,
        event.lineage_id,
        event.from_status,
        event.to_status,
        event.reason,
        dump_json(event.details),
    )


def audit_from_row(row: Sequence[Any]) -> AuditEvent:
    return AuditEvent(
        id=row[0],
        space_id=row[1],
        action=row[2],
        actor=row[3],
        at=stored_time(row[4]),
        record_id=row[5],
        lineage_id=row[6],
        from_status=row[7],
        to_status=row[8],
        reason=row[9],
        details=json.loads(row[10]),
        seq=row[11] if len(row) > 11 else None,
    )


def session_from_rows(row: Sequence[Any], turns: Sequence[Sequence[Any]]) -> Session:
    return Session(
        id=row[0],
        space_id=row[1],
        title=row[2],
        source=row[3],
        created_at=stored_time(row[4]),
        metadata=json.loads(row[5]),
        turns=tuple(
            Turn(
                index=t[0],
                role=t[1],
                speaker=t[2],
                text=t[3],
                occurred_at=None if t[4] is None else stored_time(t[4]),
            )
            for t in turns
        ),
    )


def session_values(session: Session) -> tuple[Any, ...]:
    return (
        session.id,
        session.space_id,
        session.title,
        session.source,
        format_time(session.created_at),
        dump_json(session.metadata),
    )


SPACE_COLUMNS = "id, workspace, subject_type, subject_id, created_at"


def space_from_row(row: Sequence[Any]) -> Space:
    return Space(
        id=row[0],
        key=SpaceKey(workspace=row[1], subject_type=row[2], subject_id=row[3]),
        created_at=stored_time(row[4]),
    )
