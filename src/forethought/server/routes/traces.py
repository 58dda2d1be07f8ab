"""Traces of governed turns, and the audit trail of a subject's memory."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from forethought.server.deps import PageDep, SubjectDep
from forethought.server.pagination import decode_cursor, decode_int_cursor, page_of
from forethought.server.routes.paths import SUBJECT
from forethought.server.schemas.common import ERRORS, AuditEventOut, Page
from forethought.server.schemas.pipeline import TraceOut

__all__ = ["router"]

router = APIRouter(prefix=SUBJECT, tags=["traces"], responses=ERRORS)


@router.get("/traces", summary="List traces, newest first", response_model=Page[TraceOut])
def list_traces(subject: SubjectDep, page: PageDep) -> Page[TraceOut]:
    found = subject.memory.list_traces(subject.scope, limit=page.limit + 1, before_id=decode_cursor(page.cursor))
    items, cursor = page_of(found, page.limit, lambda t: t.id)
    return Page(items=[TraceOut.of(t) for t in items], next_cursor=cursor)


@router.get("/traces/{trace_id}", summary="One trace: every stage, timed", response_model=TraceOut)
def get_trace(subject: SubjectDep, trace_id: str) -> TraceOut:
    return TraceOut.of(subject.memory.trace(subject.scope, trace_id))


@router.get("/audit", summary="Audit events, newest first", response_model=Page[AuditEventOut])
def audit(
    subject: SubjectDep,
    page: PageDep,
    record_id: Annotated[str | None, Query(description="Only the events of this record id.")] = None,
) -> Page[AuditEventOut]:
    found = subject.memory.audit_events(
        subject.scope, record_id=record_id, limit=page.limit + 1, before_seq=decode_int_cursor(page.cursor)
    )
    items, cursor = page_of(found, page.limit, lambda e: e.seq or 0)
    return Page(items=[AuditEventOut.of(e) for e in items], next_cursor=cursor)
