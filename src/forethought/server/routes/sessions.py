"""Sessions: capture a transcript (it goes through extraction and review), list and read what was captured."""

from __future__ import annotations

import json

from fastapi import APIRouter

from forethought.domain.times import parse_time
from forethought.server.deps import AdminSubjectDep, PageDep, SubjectDep
from forethought.server.pagination import decode_cursor, page_of
from forethought.server.routes.paths import SUBJECT
from forethought.server.schemas.admin import (
    RejectionOut,
    SessionCreate,
    SessionOut,
    SessionSummaryOut,
    SubmissionOut,
    SubmittedItemOut,
)
from forethought.server.schemas.common import ERRORS, Page

__all__ = ["router"]

router = APIRouter(prefix=f"{SUBJECT}/sessions", tags=["sessions"], responses=ERRORS)


@router.post("", status_code=201, summary="Capture a transcript and send its memories to review")
def submit_session(subject: SubjectDep, body: SessionCreate) -> SubmissionOut:
    """Secrets are scrubbed before anything is stored; candidates the app's policy approves become
    active at once, the rest wait in the inbox; validator rejections are listed with their rule.
    `human` names the person among named speakers; `occurred_at` (with its time zone) dates a
    session whose transcript carries no times."""
    when = None if body.occurred_at is None else parse_time(body.occurred_at, field="occurred_at", zoned=True)
    if body.messages is not None:
        transcript, fmt = json.dumps({"messages": [m.model_dump() for m in body.messages]}), "json"
    else:
        transcript, fmt = body.text or "", body.format
    done = subject.memory.submit_session(
        subject.scope, transcript, title=body.title, fmt=fmt, source="api", human=body.human, occurred_at=when
    )
    s = done.result.submission
    return SubmissionOut(
        session=SessionOut.of(done.session),
        items=[SubmittedItemOut.of(i) for i in s.items],
        rejected=[RejectionOut.of(r) for r in s.rejected],
        mode=done.result.mode,
        heuristic=done.result.mode == "heuristic",
        degraded=done.result.degraded,
    )


@router.get("", summary="Captured sessions, newest first", response_model=Page[SessionSummaryOut])
def list_sessions(subject: SubjectDep, page: PageDep) -> Page[SessionSummaryOut]:
    found = subject.memory.list_sessions(subject.scope, limit=page.limit + 1, before_id=decode_cursor(page.cursor))
    items, cursor = page_of(found, page.limit, lambda s: s.id)
    return Page(items=[SessionSummaryOut.of(s) for s in items], next_cursor=cursor)


@router.get("/{session_id}", summary="One captured session with its turns", response_model=SessionOut)
def get_session(subject: SubjectDep, session_id: str) -> SessionOut:
    return SessionOut.of(subject.memory.get_session(subject.scope, session_id))


@router.delete("/{session_id}", summary="Erase one captured session: its turns, index entries and traces")
def delete_session(subject: AdminSubjectDep, session_id: str) -> dict[str, int]:
    """Admin keys only: erasure cannot be undone. Records taken from the session stay."""
    return {"deleted_turns": subject.memory.delete_session(subject.scope, session_id)}
