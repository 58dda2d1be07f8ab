"""The memory explorer: search and filters (kind, tag, status, "as of" a date), and a record's
page with its versions, supersessions, evidence and audit trail."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from forethought.domain import Record, Status
from forethought.domain.limits import check_kind, check_tags
from forethought.domain.times import parse_time
from forethought.errors import InvalidInput
from forethought.web.deps import FormPlaceDep, Place, PlaceDep, erasing_refused
from forethought.web.errors import PageRoute
from forethought.web.evidence import TurnSource, quoted
from forethought.web.render import page

__all__ = ["STATUS_CHOICES", "router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/memory", route_class=PageRoute, include_in_schema=False)

STATUS_CHOICES: dict[str, tuple[Status, ...]] = {
    "current": (Status.ACTIVE,),
    "candidate": (Status.CANDIDATE,),
    "superseded": (Status.SUPERSEDED,),
    "retracted": (Status.RETRACTED,),
    "rejected": (Status.REJECTED,),
    "all": tuple(Status),
}
LIMIT = 100


@dataclass(frozen=True)
class Row:
    record: Record
    score: float | None = None
    why: str = ""


@dataclass(frozen=True)
class Filters:
    q: str = ""
    kind: str = ""
    tag: str = ""
    status: str = "current"
    as_of: str = ""


def _as_of(value: str) -> datetime | None:
    """A date means the end of that day (UTC); a full timestamp means that moment."""
    if not value.strip():
        return None
    when = parse_time(value, field="as of")
    if len(value.strip()) == 10:
        when = datetime.combine(when.date(), time.max, tzinfo=when.tzinfo)
    return when


def _search(place: Place, f: Filters) -> list[Row]:
    if f.status not in STATUS_CHOICES:
        raise InvalidInput(f"status: {f.status!r} is not one of {', '.join(STATUS_CHOICES)}")
    kinds = (check_kind(f.kind),) if f.kind else ()
    tags = check_tags([f.tag]) if f.tag else ()
    when = _as_of(f.as_of)
    # As of a date, what was true then: records active then, whether superseded since or not.
    statuses = (Status.ACTIVE, Status.SUPERSEDED) if when is not None else STATUS_CHOICES[f.status]
    memory = place.memory
    if f.q.strip():
        found = memory.recall(place.scope, f.q, k=50, kinds=kinds, tags=tags, statuses=statuses, as_of=when)
        return [Row(h.record, h.score, h.explain()) for h in found.hits]
    # The latest recorded first, filtered in the store: a large subject shows its newest records.
    records = memory.list_records(
        place.scope, statuses=statuses, kinds=kinds, tags=tags, as_of=when, limit=LIMIT, newest_first=True
    )
    return [Row(r) for r in records]


@router.get("")
def explorer(
    request: Request,
    place: PlaceDep,
    q: str = "",
    kind: str = "",
    tag: str = "",
    status: str = "current",
    as_of: str = "",
) -> Response:
    """The explorer asked for by a link (`?q=&kind=...`); the page's own form posts instead."""
    return _explorer_page(request, place, Filters(q.strip(), kind.strip(), tag.strip(), status, as_of.strip()))


@router.post("")
def explorer_form(
    request: Request,
    place: FormPlaceDep,
    q: Annotated[str, Form()] = "",
    kind: Annotated[str, Form()] = "",
    tag: Annotated[str, Form()] = "",
    status: Annotated[str, Form()] = "current",
    as_of: Annotated[str, Form()] = "",
) -> Response:
    """The search form posts, so what is typed in the search box stays out of URLs and access logs."""
    return _explorer_page(request, place, Filters(q.strip(), kind.strip(), tag.strip(), status, as_of.strip()))


def _explorer_page(request: Request, place: Place, filters: Filters) -> Response:
    error = None
    try:
        rows = _search(place, filters)
    except InvalidInput as exc:
        rows, error = [], str(exc)
    return page(
        request,
        "memory.html",
        place=place,
        status=422 if error else 200,
        title="Memory",
        rows=rows,
        filters=filters,
        kinds=sorted(place.app.kinds),
        statuses=list(STATUS_CHOICES),
        error=error,
        limit=LIMIT,
    )


def record_url(place: Place, record_id: str) -> str:
    return place.url(f"memory/{quote(record_id, safe='')}")


@router.get("/{record_id}")
def record(request: Request, place: PlaceDep, record_id: str) -> Response:
    history = place.memory.history(place.scope, record_id)
    source = TurnSource(place.memory, place.scope)
    return page(
        request,
        "record.html",
        place=place,
        title=f"Record {history.record.handle}",
        record=history.record,
        history=history,
        quotes=quoted(history.record, source),
    )


@router.post("/{record_id}/supersede")
def supersede(
    place: FormPlaceDep,
    record_id: str,
    text: Annotated[str, Form()] = "",
    occurred_at: Annotated[str, Form()] = "",
    reason: Annotated[str, Form()] = "",
) -> RedirectResponse:
    try:
        new = place.memory.supersede(
            place.scope, record_id, text, occurred_at=occurred_at.strip() or None, reason=reason.strip() or None
        )
    except InvalidInput as exc:
        place.viewer.notify(str(exc), error=True)
        return RedirectResponse(record_url(place, record_id), status_code=303)
    place.viewer.notify(f"Superseded: {new.handle} now replaces the old record.")
    return RedirectResponse(record_url(place, new.id), status_code=303)


@router.post("/{record_id}/retract")
def retract(place: FormPlaceDep, record_id: str, why: Annotated[str, Form()] = "") -> RedirectResponse:
    try:
        done = place.memory.retract(place.scope, record_id, why=why)
    except InvalidInput as exc:
        place.viewer.notify(str(exc), error=True)
    else:
        place.viewer.notify(f"Retracted {done.handle}: it stays in history, never in recall.")
    return RedirectResponse(record_url(place, record_id), status_code=303)


@router.post("/{record_id}/forget")
def forget(
    place: FormPlaceDep,
    record_id: str,
    confirm: Annotated[str, Form()] = "",
    redact_sources: Annotated[str, Form()] = "",
) -> RedirectResponse:
    """Erase a record everywhere, after the page's confirmation box; optionally its words in the
    conversations it came from."""
    ask = "Tick the confirmation to forget: erasing cannot be undone."
    if refused := erasing_refused(place, record_url(place, record_id), confirmed=confirm == "yes", ask=ask):
        return refused
    cut = redact_sources == "yes"
    removed = place.memory.forget(place.scope, record_id, redact_sources=cut)
    extra = "; its words were cut out of the conversations that carried them" if cut else ""
    place.viewer.notify(f"Forgotten: {removed} version(s) erased from every table and index{extra}.")
    return RedirectResponse(place.url("memory"), status_code=303)


@router.post("/erase")
def erase(place: FormPlaceDep, confirm: Annotated[str, Form(max_length=200)] = "") -> RedirectResponse:
    """Erase the whole subject once its id is typed again."""
    subject = place.scope.key.subject_id
    ask = f"Type {subject!r} to confirm: erasing a subject cannot be undone."
    if refused := erasing_refused(place, place.url("memory"), confirmed=confirm.strip() == subject, ask=ask):
        return refused
    removed = place.memory.erase_space(place.scope)
    place.viewer.notify(f"Erased {subject}: {removed} record(s), every session, trace and audit event.")
    return RedirectResponse("/web", status_code=303)
