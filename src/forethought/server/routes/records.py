"""Records: list, retain (one or a batch), read, history, supersede, retract, forget."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from forethought.domain import Status
from forethought.facade import RetainItem
from forethought.server.deps import AdminSubjectDep, PageDep, SubjectDep
from forethought.server.pagination import decode_cursor, page_of
from forethought.server.routes.paths import SUBJECT
from forethought.server.schemas.common import ERRORS, AuditEventOut, Page, RecordOut
from forethought.server.schemas.records import (
    ForgetOut,
    HistoryOut,
    RetainBatchIn,
    RetainedBatchOut,
    RetainedOut,
    RetainIn,
    RetractIn,
    SupersedeIn,
)

__all__ = ["router"]

router = APIRouter(prefix=f"{SUBJECT}/records", tags=["records"], responses=ERRORS)

RecordId = Annotated[str, "a record id or handle"]


@router.get("", summary="List records, oldest first", response_model=Page[RecordOut])
def list_records(
    subject: SubjectDep,
    page: PageDep,
    status: Annotated[list[Status], Query(description="Statuses to include (repeatable).")] = [Status.ACTIVE],  # noqa: B006
    kind: Annotated[list[str], Query(description="Kinds to include (repeatable); none means all.")] = [],  # noqa: B006
) -> Page[RecordOut]:
    found = subject.memory.list_records(
        subject.scope, statuses=status, kinds=kind, limit=page.limit + 1, after_id=decode_cursor(page.cursor)
    )
    items, cursor = page_of(found, page.limit, lambda r: r.id)
    return Page(items=[RecordOut.of(r) for r in items], next_cursor=cursor)


@router.post("", status_code=201, summary="Retain a memory", response_model=RetainedOut)
def retain(subject: SubjectDep, body: RetainIn, response: Response) -> RetainedOut:
    """201 with the new record; 200 with the first one when `external_id` was retained before."""
    done = subject.memory.retain(
        subject.scope,
        body.text,
        kind=body.kind,
        tags=body.tags,
        occurred_at=body.occurred_at,
        external_id=body.external_id,
        attributes=body.attributes,
        confidence=body.confidence,
        status=Status(body.status),
        asserted_by=body.asserted_by,
        source="api",
        context=body.context,
        check=body.check,
    )
    if not done.created:
        response.status_code = 200
    return RetainedOut(record=RecordOut.of(done.record), created=done.created)


@router.post("/batch", status_code=201, summary="Retain many memories at once", response_model=RetainedBatchOut)
def retain_batch(subject: SubjectDep, body: RetainBatchIn, response: Response) -> RetainedBatchOut:
    """Active records, embedded in batches; every item is validated before anything is written, so
    a bad item refuses the request and stores nothing. Idempotent by `external_id`: sending a batch
    again creates nothing (200) and returns the records made the first time."""
    done = subject.memory.retain_many(
        subject.scope,
        [
            RetainItem(i.text, i.kind, tuple(i.tags), i.occurred_at, i.external_id, i.attributes, i.context)
            for i in body.items
        ],
        source="api",
    )
    created = sum(d.created for d in done)
    if not created:
        response.status_code = 200
    return RetainedBatchOut(
        items=[RetainedOut(record=RecordOut.of(d.record), created=d.created) for d in done], created=created
    )


@router.get("/{record_id}", summary="Read one record (by id or handle)", response_model=RecordOut)
def get_record(subject: SubjectDep, record_id: RecordId) -> RecordOut:
    return RecordOut.of(subject.memory.get(subject.scope, record_id))


@router.get("/{record_id}/history", summary="Versions, supersessions and audit events", response_model=HistoryOut)
def history(subject: SubjectDep, record_id: RecordId) -> HistoryOut:
    h = subject.memory.history(subject.scope, record_id)
    return HistoryOut(
        record=RecordOut.of(h.record),
        chain=[RecordOut.of(r) for r in h.chain],
        events=[AuditEventOut.of(e) for e in h.events],
    )


@router.post(
    "/{record_id}/supersede", status_code=201, summary="Replace a record with a new fact", response_model=RecordOut
)
def supersede(subject: SubjectDep, record_id: RecordId, body: SupersedeIn) -> RecordOut:
    """The old record becomes superseded, valid until the new one's `occurred_at`."""
    new = subject.memory.supersede(
        subject.scope,
        record_id,
        body.text,
        kind=body.kind,
        tags=body.tags,
        occurred_at=body.occurred_at,
        reason=body.reason,
        attributes=body.attributes,
    )
    return RecordOut.of(new)


@router.post("/{record_id}/retract", summary="Withdraw a record that was wrong", response_model=RecordOut)
def retract(subject: SubjectDep, record_id: RecordId, body: RetractIn) -> RecordOut:
    return RecordOut.of(subject.memory.retract(subject.scope, record_id, why=body.why))


@router.delete("/{record_id}", summary="Forget: erase every version everywhere", response_model=ForgetOut)
def forget(
    subject: AdminSubjectDep,
    record_id: RecordId,
    redact_sources: Annotated[
        bool, Query(description="Also cut its words out of the turns and titles that carried or quoted it.")
    ] = False,
) -> ForgetOut:
    """Admin keys only: erasure cannot be undone. `purged` is false when a concurrent reader kept
    the bytes on disk for now (they go at a later write)."""
    forgotten = subject.memory.forget(subject.scope, record_id, redact_sources=redact_sources)
    return ForgetOut(forgotten=forgotten, purged=not subject.memory.store.erasure_pending())
