"""The review inbox: candidates waiting for a person, and the decisions on them."""

from __future__ import annotations

from fastapi import APIRouter

from forethought.domain import Status
from forethought.server.deps import PageDep, SubjectDep
from forethought.server.pagination import decode_cursor, page_of
from forethought.server.routes.paths import SUBJECT
from forethought.server.schemas.admin import RejectionOut, SubmittedItemOut
from forethought.server.schemas.common import ERRORS, Page, RecordOut
from forethought.server.schemas.records import (
    ApproveAllIn,
    ApprovedOut,
    ApproveIn,
    EditIn,
    FromExcerptIn,
    FromExcerptOut,
    RejectIn,
    SupersedeWithIn,
)

__all__ = ["router"]

router = APIRouter(prefix=f"{SUBJECT}/inbox", tags=["inbox"], responses=ERRORS)


@router.get("", summary="Candidates waiting for review, oldest first", response_model=Page[RecordOut])
def pending(subject: SubjectDep, page: PageDep) -> Page[RecordOut]:
    """Each carries its validator `flags` (a flagged one must be edited before approval) and the
    `relation` found to existing memory. What the validator filtered out is listed under
    `GET .../records?status=rejected` (flags `validator:<rule>`)."""
    found = subject.memory.list_records(
        subject.scope, statuses=(Status.CANDIDATE,), limit=page.limit + 1, after_id=decode_cursor(page.cursor)
    )
    items, cursor = page_of(found, page.limit, lambda r: r.id)
    return Page(items=[RecordOut.of(r) for r in items], next_cursor=cursor)


@router.post("/approve-all", summary="Approve every unflagged, conflict-free candidate", response_model=ApprovedOut)
def approve_all(subject: SubjectDep, body: ApproveAllIn | None = None) -> ApprovedOut:
    done = subject.memory.approve_all(subject.scope, high_confidence=(body or ApproveAllIn()).high_confidence)
    return ApprovedOut(approved=[RecordOut.of(r) for r in done])


@router.post(
    "/from-excerpt", status_code=201, summary="File a brief's past-session excerpt as a candidate",
    response_model=FromExcerptOut,
)  # fmt: skip
def from_excerpt(subject: SubjectDep, body: FromExcerptIn) -> FromExcerptOut:
    """The quote must be verbatim from that turn of a session of this subject (422 otherwise; 404
    for a session that is not theirs). It is validated, scrubbed and related like anything captured."""
    done = subject.memory.promote_excerpt(
        subject.scope, body.session_id, body.turn_index, body.quote, kind=body.kind, statement=body.statement
    )
    return FromExcerptOut(
        items=[SubmittedItemOut.of(i) for i in done.items], rejected=[RejectionOut.of(r) for r in done.rejected]
    )


@router.post("/{record_id}/approve", summary="Approve a candidate", response_model=RecordOut)
def approve(subject: SubjectDep, record_id: str, body: ApproveIn | None = None) -> RecordOut:
    """A candidate that conflicts with a record needs `conflict`: supersede it, or keep both."""
    choice = body or ApproveIn()
    return RecordOut.of(
        subject.memory.approve(subject.scope, record_id, reason=choice.reason, conflict=choice.conflict)
    )


@router.post(
    "/{record_id}/supersede", summary="Approve a candidate as the replacement of a record", response_model=RecordOut
)
def supersede_with(subject: SubjectDep, record_id: str, body: SupersedeWithIn) -> RecordOut:
    """The reviewer names the active record the candidate replaces; that one becomes superseded."""
    done = subject.memory.approve(subject.scope, record_id, reason=body.reason, supersedes=body.target)
    return RecordOut.of(done)


@router.post(
    "/{record_id}/edit", status_code=201, summary="Correct a candidate (a new version)", response_model=RecordOut
)
def edit(subject: SubjectDep, record_id: str, body: EditIn) -> RecordOut:
    return RecordOut.of(subject.memory.edit(subject.scope, record_id, body.text, tags=body.tags, reason=body.reason))


@router.post("/{record_id}/reject", summary="Reject a candidate", response_model=RecordOut)
def reject(subject: SubjectDep, record_id: str, body: RejectIn | None = None) -> RecordOut:
    return RecordOut.of(subject.memory.reject(subject.scope, record_id, reason=(body or RejectIn()).reason))
