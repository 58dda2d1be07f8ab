"""Importing a transcript (pasted or uploaded; text, JSON or JSON Lines).

Without JavaScript the form posts to `.../import` and the import runs in the request, ending on
a result page. With JavaScript (static/app.js) the same form posts to `.../import/jobs`, the
import runs in a thread, and the page follows `.../import/jobs/{id}/events` (server-sent events)
to draw its progress bar; the job's events are the store's, so the stream may reach any server
process, and a job whose process died ends with a failed event saying so. Both parse everything
first, so bad input changes nothing. The form may name the person among the transcript's named
speakers and say when the session happened (an ISO 8601 time with its time zone) for a
transcript that carries no times.

A project's import page also takes its rule files and ADR Markdown files (several at once) at
`.../import/documents`: read by name and filed once each (`forethought.projects.documents`), in
the request, ending on the filing result.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, Request, Response, UploadFile
from fastapi.responses import JSONResponse, StreamingResponse

from forethought.domain.limits import MAX_SPEAKER, check_speaker, parse_sequence
from forethought.domain.times import MAX_TIME_CHARS, parse_time
from forethought.errors import InvalidInput
from forethought.pipeline.transcripts import MAX_TRANSCRIPT_BYTES
from forethought.projects.documents import MAX_FILE_CHARS, MAX_FILES, file_texts
from forethought.web.deps import FormPlaceDep, FormProjectDep, Place, PlaceDep
from forethought.web.errors import PageError, PageRoute
from forethought.web.jobs import FORMATS, ImportsFull, PlannedSession, Progress, plan_import, run_import
from forethought.web.render import page

__all__ = ["router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/import", route_class=PageRoute, include_in_schema=False)

POLL_S = 0.2  # how often an event stream looks for new progress (a read of the store)
KEEPALIVE_S = 15.0

Text = Annotated[str, Form()]
Upload = Annotated[UploadFile | None, File()]
Uploads = Annotated[list[UploadFile], File()]
MAX_FILE_BYTES = 4 * MAX_FILE_CHARS  # UTF-8 takes at most four bytes a character


@dataclass(frozen=True)
class ImportFields:
    """What the form sent besides the file, kept to show the form again after an error."""

    text: str = ""
    format: str = "auto"
    title: str = ""
    human: str = ""
    occurred_at: str = ""


def _fields(
    text: Text = "", format: Text = "auto", title: Text = "", human: Text = "", occurred_at: Text = ""
) -> ImportFields:
    return ImportFields(text=text, format=format, title=title, human=human, occurred_at=occurred_at)


FieldsDep = Annotated[ImportFields, Depends(_fields)]


def _form(
    request: Request,
    place: Place,
    *,
    error: str | None = None,
    status: int = 200,
    fields: ImportFields | None = None,
    documents_error: str | None = None,
) -> Response:
    return page(
        request,
        "import.html",
        place=place,
        status=status,
        title="Import",
        formats=FORMATS,
        error=error,
        fields=fields or ImportFields(),
        max_speaker=MAX_SPEAKER,
        max_time=MAX_TIME_CHARS,
        documents_error=documents_error,
        max_files=MAX_FILES,
    )


def _human(fields: ImportFields) -> str | None:
    name = fields.human.strip()
    return check_speaker(name, field="person's name") if name else None


def _when(fields: ImportFields) -> datetime | None:
    when = fields.occurred_at.strip()
    return parse_time(when, field="when it happened", zoned=True) if when else None


async def _plan(fields: ImportFields, file: UploadFile | None) -> list[PlannedSession]:
    human, when = _human(fields), _when(fields)
    data: bytes | str = fields.text
    title = fields.title
    if file is not None and file.filename:
        data = await file.read(MAX_TRANSCRIPT_BYTES + 1)
        title = title.strip() or file.filename
        if not data:
            raise InvalidInput(f"transcript: {file.filename} is empty")
    return plan_import(
        data, fmt=fields.format, title=title.strip() or "imported transcript", human=human, occurred_at=when
    )


@router.get("")
def import_form(request: Request, place: PlaceDep) -> Response:
    return _form(request, place)


@router.post("")
async def import_now(request: Request, place: FormPlaceDep, fields: FieldsDep, file: Upload = None) -> Response:
    """The form without JavaScript: import in the request, then show the result."""
    try:
        plan = await _plan(fields, file)
    except InvalidInput as exc:
        return _form(request, place, error=str(exc), status=422, fields=fields)
    events: list[str] = []
    summary = await asyncio.to_thread(
        run_import, place.memory, place.scope, plan, lambda _s, _p, message: events.append(message)
    )
    return page(request, "import_done.html", place=place, title="Import", summary=summary, events=events)


async def _texts(files: list[UploadFile]) -> list[tuple[str, str]]:
    """Each chosen file's name and text (a form with no file chosen sends one without a name)."""
    chosen = [f for f in files if f.filename]
    if len(chosen) > MAX_FILES:
        raise InvalidInput(f"files: at most {MAX_FILES} at once ({len(chosen)} chosen)")
    texts: list[tuple[str, str]] = []
    for upload in chosen:
        name = upload.filename or ""
        data = await upload.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise InvalidInput(f"{name}: over the limit of {MAX_FILE_BYTES:,} bytes")
        try:
            texts.append((name, data.decode("utf-8")))
        except UnicodeDecodeError:
            raise InvalidInput(f"{name}: not valid UTF-8") from None
    return texts


@router.post("/documents")
async def import_documents(request: Request, place: FormProjectDep, files: Uploads = []) -> Response:  # noqa: B006
    """A project's rule files and ADRs: all read first (bad input files nothing), then filed once each."""
    try:
        texts = await _texts(files)
        filed = await asyncio.to_thread(file_texts, place.memory, place.scope, texts)
    except InvalidInput as exc:
        return _form(request, place, documents_error=str(exc), status=422)
    history = [r for d in filed.result.documents for r in d.history]
    return page(request, "import_documents.html", place=place, title="Import", filed=filed, history=history)


@router.post("/jobs")
async def start_import(place: FormPlaceDep, fields: FieldsDep, file: Upload = None) -> JSONResponse:
    """The form with JavaScript: start the import, answer where to follow it."""
    try:
        plan = await _plan(fields, file)
    except InvalidInput as exc:
        return JSONResponse({"error": str(exc)}, status_code=422)
    try:
        job_id = await asyncio.to_thread(place.viewer.state.imports.start, place.memory, place.scope, plan)
    except ImportsFull:
        return JSONResponse(
            {"error": "too many imports are running for this subject; wait for one to finish"},
            status_code=429,
            headers={"Retry-After": "10"},
        )
    return JSONResponse(
        {"events": place.url(f"import/jobs/{job_id}/events"), "inbox": place.url("inbox")}, status_code=202
    )


def _sse(event: Progress) -> str:
    return f"id: {event.seq}\nevent: progress\ndata: {event.as_json()}\n\n"


@router.get("/jobs/{job_id}/events")
async def follow_import(request: Request, place: PlaceDep, job_id: str) -> StreamingResponse:
    imports = place.viewer.state.imports
    if await asyncio.to_thread(imports.follow, job_id, place.scope, -1, limit=1) is None:
        raise PageError(404, "No such import here (finished imports are kept for a day).")
    # A reconnecting browser resumes where it was. Headers arrive decoded as Latin-1, so a stray
    # byte can read as a superscript digit: only ASCII digits are an event id.
    last = request.headers.get("last-event-id")
    try:
        seen = -1 if not last else parse_sequence(last, field="Last-Event-ID")
    except InvalidInput as exc:
        raise PageError(422, str(exc)) from None

    async def stream() -> AsyncIterator[str]:
        nonlocal seen
        idle = 0.0
        while True:
            view = await asyncio.to_thread(imports.follow, job_id, place.scope, seen)
            fresh = [] if view is None else [Progress.of(e) for e in view.events]
            for event in fresh:
                yield _sse(event)
                seen = event.seq
            if view is None or (view.finished and (not fresh or fresh[-1].finished)):
                return  # the end (seen now or before), or the job went with its space
            if await request.is_disconnected():
                return
            idle = 0.0 if fresh else idle + POLL_S
            if idle >= KEEPALIVE_S:
                idle = 0.0
                yield ": keep-alive\n\n"
            await asyncio.sleep(POLL_S)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )
