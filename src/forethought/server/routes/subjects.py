"""The subjects (spaces) an app holds in the caller's workspace."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from forethought.errors import InvalidInput
from forethought.server.deps import AdminSubjectDep, CallerDep, PageDep
from forethought.server.pagination import slice_sorted
from forethought.server.schemas.admin import SubjectOut
from forethought.server.schemas.common import ERRORS, Page

__all__ = ["router"]

router = APIRouter(prefix="/v1/apps/{app}/subjects", tags=["subjects"], responses=ERRORS)


@router.get("", summary="List the app's subjects in your workspace", response_model=Page[SubjectOut])
def list_subjects(
    caller: CallerDep, page: PageDep, app: Annotated[str, Path(description="The app.")]
) -> Page[SubjectOut]:
    resolved = caller.memory.app(app)
    spaces = caller.memory.list_spaces(caller.workspace, subject_type=resolved.subject_type)
    items, cursor = slice_sorted(spaces, lambda s: s.key.subject_id, page.cursor, page.limit)
    return Page(items=[SubjectOut.of(resolved.name, s) for s in items], next_cursor=cursor)


@router.delete("/{subject_id}", summary="Erase a whole subject: every record, session, trace and audit event")
def erase_subject(
    subject: AdminSubjectDep,
    confirm: Annotated[str, Query(max_length=200, description="The subject id again, to confirm.")] = "",
) -> dict[str, int]:
    """Admin keys only, and the subject id repeated in `confirm`: erasure cannot be undone."""
    if confirm != subject.scope.key.subject_id:
        raise InvalidInput("confirm: repeat the subject id (?confirm=<subject id>) to erase it and all it holds")
    return {"erased_records": subject.memory.erase_space(subject.scope)}
