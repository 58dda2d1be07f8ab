"""The project app over HTTP: the rulebook (formats, snapshots, changes), documents (rule files and
ADRs sent as text), the stale queue with confirm and retire, eval over a task file, and compare.

Every route hangs under the subject path like the others, and answers only for the project app: any
other app is a 404 that says so. There is no working-tree check over HTTP (`stale` reads no
repository): the server never reads a path the caller names.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from forethought.domain.times import MAX_TIME_CHARS, format_time, parse_time
from forethought.errors import InvalidInput
from forethought.projects.compare_runs import get_run, list_runs, run_and_keep
from forethought.projects.documents import file_texts
from forethought.projects.evaluation import evaluate
from forethought.projects.rulebook import Change, build_rulebook, changes, render
from forethought.projects.stale import REVIEW_DAYS, StaleRule, review_queue
from forethought.server.deps import PageDep, Subject, SubjectDep
from forethought.server.errors import ApiError
from forethought.server.pagination import decode_cursor, page_of, slice_sorted
from forethought.server.routes.paths import SUBJECT
from forethought.server.schemas.common import ERRORS, Page, RecordOut
from forethought.server.schemas.project import (
    ChangeOut,
    CompareIn,
    ConfirmedOut,
    ConfirmIn,
    DocumentsIn,
    DocumentsOut,
    EvalIn,
    JsonOut,
    RetireIn,
    RulebookFormat,
    RulebookOut,
    StaleOut,
)

__all__ = ["PROJECT_APP", "ProjectDep", "project_subject", "router"]

PROJECT_APP = "project"
router = APIRouter(prefix=SUBJECT, tags=["project"], responses=ERRORS)
When = Annotated[str | None, Query(max_length=MAX_TIME_CHARS, description="An ISO 8601 date or time (UTC by default).")]


def project_subject(subject: SubjectDep) -> Subject:
    """The subject, when it is a project (else 404: these routes are the project app's)."""
    if subject.scope.app.name != PROJECT_APP:
        raise ApiError(
            404, "not_found", f"app {subject.scope.app.name!r} has no such route: it belongs to the project app"
        )
    return subject


ProjectDep = Annotated[Subject, Depends(project_subject)]


def _time(value: str | None, field: str) -> datetime | None:
    return None if value is None else parse_time(value, field=field)


@router.get("/rulebook", summary="The rules in force (now or as of a date), as Markdown or a rule file",
            response_model=RulebookOut)  # fmt: skip
def rulebook(
    project: ProjectDep,
    format: Annotated[RulebookFormat, Query(description="md, or agents / claude / cursor file content.")] = "md",
    as_of: When = None,
) -> RulebookOut:
    book = build_rulebook(project.memory, project.scope, as_of=_time(as_of, "as_of"))
    return RulebookOut(
        format=format, as_of=book.as_of, text=render(book, format), rules=[RecordOut.of(r) for r in book.rules],
        truncated=book.truncated,
    )  # fmt: skip


def _change_key(change: Change) -> str:
    # The order `changes` gives: time, a supersession before anything else at that time, record id.
    return f"{change.at.astimezone(UTC):%Y%m%d%H%M%S%f}|{int(change.what != 'superseded')}|{change.record.id}"


@router.get("/rulebook/changes", summary="What came into force and what was retired between two dates",
            response_model=Page[ChangeOut])  # fmt: skip
def rulebook_changes(
    project: ProjectDep, page: PageDep, since: Annotated[str, Query(max_length=MAX_TIME_CHARS)], until: When = None
) -> Page[ChangeOut]:
    """Each supersession carries its replacement (`replaced_by`); `until` defaults to now."""
    start, end = parse_time(since, field="since"), _time(until, "until")
    if end is not None and end <= start:
        raise InvalidInput(f"until: {format_time(end)} is not after since ({format_time(start)})")
    found = changes(project.memory, project.scope, start, end)
    items, cursor = slice_sorted(found, _change_key, page.cursor, page.limit)
    return Page(items=[ChangeOut.of(c) for c in items], next_cursor=cursor)


@router.post("/documents", summary="File rule files and ADRs sent as text (each once)", response_model=DocumentsOut)
def documents(project: ProjectDep, body: DocumentsIn) -> DocumentsOut:
    """A known rule-file name is read as a rule file, other Markdown as an ADR; anything else is a
    422 naming the file. What they propose goes to the inbox; posting them again files nothing new."""
    return DocumentsOut.of(file_texts(project.memory, project.scope, [(f.path, f.text) for f in body.files]))


def _stale_key(stale: StaleRule) -> str:
    return f"{stale.due.astimezone(UTC):%Y%m%d%H%M%S%f}|{stale.record.id}"


@router.get("/stale", summary="The rules due for re-confirmation, soonest due first", response_model=Page[StaleOut])
def stale(
    project: ProjectDep,
    page: PageDep,
    days: Annotated[int, Query(ge=1, le=3650, description="The review interval in days.")] = REVIEW_DAYS,
) -> Page[StaleOut]:
    queue = review_queue(project.memory, project.scope, days=days)
    items, cursor = slice_sorted(queue, _stale_key, page.cursor, page.limit)
    return Page(items=[StaleOut.of(s) for s in items], next_cursor=cursor)


@router.post("/stale/{record_id}/confirm", summary="Re-confirm a rule: it stands (renews its review date)",
             response_model=ConfirmedOut)  # fmt: skip
def confirm(project: ProjectDep, record_id: str, body: ConfirmIn | None = None) -> ConfirmedOut:
    note = (body or ConfirmIn()).note
    event = project.memory.note_review(project.scope, record_id, "confirmed", reason=note)
    return ConfirmedOut(record=RecordOut.of(project.memory.get(project.scope, record_id)), confirmed_at=event.at)


@router.post("/stale/{record_id}/retire", summary="Retire a rule (a retraction; it stays in history)",
             response_model=RecordOut)  # fmt: skip
def retire(project: ProjectDep, record_id: str, body: RetireIn) -> RecordOut:
    return RecordOut.of(project.memory.retract(project.scope, record_id, why=body.why))


@router.post("/eval", summary="Brief precision, recall and forbidden-rule rate over a task file")
def eval_tasks(project: ProjectDep, body: EvalIn) -> JsonOut:
    return evaluate(project.memory, project.scope, body.tasks, limit=body.limit).as_json()


@router.post("/compare", summary="One task answered with and without memory, both checked blind (needs a model)")
def compare_task(project: ProjectDep, body: CompareIn) -> JsonOut:
    """422 when the server runs without a language model: compare never fakes a baseline. The
    finished run is kept with the project (its `id` opens it again under `compare/runs`)."""
    run = run_and_keep(project.memory, project.scope, body.task, repeat=body.repeat, file_paths=body.file_paths)
    return run.model_dump(mode="json", by_alias=True)


@router.get("/compare/runs", summary="The project's kept compare runs, newest first", response_model=Page[JsonOut])
def compare_runs(project: ProjectDep, page: PageDep) -> Page[JsonOut]:
    found = list_runs(project.memory, project.scope, limit=page.limit + 1, before_id=decode_cursor(page.cursor))
    items, cursor = page_of(found, page.limit, lambda r: r.id)
    return Page(items=[r.model_dump(mode="json", by_alias=True) for r in items], next_cursor=cursor)


@router.get("/compare/runs/{trace_id}", summary="One kept compare run of the project")
def compare_run(project: ProjectDep, trace_id: str) -> JsonOut:
    """404 for an unknown id, another project's run, or a trace that is not a compare run."""
    return get_run(project.memory, project.scope, trace_id).model_dump(mode="json", by_alias=True)
