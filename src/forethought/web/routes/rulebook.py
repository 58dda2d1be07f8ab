"""A project's rulebook page: the rules in force grouped by kind and area, as of a date picked on
the page, what changed since another date (each supersession beside its replacement), and the
AGENTS.md / CLAUDE.md / .cursorrules content generated from the same rules, to download.

Dates are days: "as of" a day is what was in force at its end (as on the memory page), "since" a
day starts at its beginning (UTC). They travel in the query string: they are not what anyone typed
about their work, and a snapshot is worth a link.
"""

from __future__ import annotations

from datetime import datetime, time
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import PlainTextResponse

from forethought.domain import Record
from forethought.domain.times import parse_time
from forethought.errors import InvalidInput
from forethought.projects.rulebook import Change, Rulebook, build_rulebook, changes, render
from forethought.web.deps import ProjectDep
from forethought.web.errors import PageRoute
from forethought.web.render import page

__all__ = ["DOWNLOADS", "MAX_CHANGES", "router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/rulebook", route_class=PageRoute, include_in_schema=False)

MAX_CHANGES = 200  # shown on the page; the API pages through all of them
DOWNLOADS: dict[str, str] = {"agents": "AGENTS.md", "claude": "CLAUDE.md", "cursor": ".cursorrules"}
FileFormat = Literal["agents", "claude", "cursor"]


def _day(value: str, field: str, *, end: bool) -> datetime | None:
    """A date means that day (its end with `end`); a full timestamp means that moment."""
    text = value.strip()
    if not text:
        return None
    when = parse_time(text, field=field)
    if end and len(text) == 10:
        when = datetime.combine(when.date(), time.max, tzinfo=when.tzinfo)
    return when


@router.get("")
def rulebook(request: Request, place: ProjectDep, as_of: str = "", since: str = "") -> Response:
    error = None
    book: Rulebook | None = None
    found: list[Change] = []
    try:
        when = _day(as_of, "as of", end=True)
        start = _day(since, "changed since", end=False)
        book = build_rulebook(place.memory, place.scope, as_of=when)
        if start is not None:
            if when is not None and when <= start:
                raise InvalidInput("changed since: pick a day before the snapshot's")
            found = changes(place.memory, place.scope, start, when)
    except InvalidInput as exc:
        error = str(exc)
    return page(
        request,
        "rulebook.html",
        place=place,
        status=422 if error else 200,
        title="Rulebook",
        book=book,
        grouped=_grouped(book),
        changes=found[:MAX_CHANGES],
        more_changes=max(0, len(found) - MAX_CHANGES),
        as_of=as_of.strip(),
        since=since.strip(),
        downloads=DOWNLOADS,
        error=error,
    )


def _grouped(book: Rulebook | None) -> list[tuple[str, list[tuple[str, list[Record]]]]]:
    """(kind label, [(area, rules)]): the app's kinds in order, areas alphabetical with general last."""
    if book is None:
        return []
    out: list[tuple[str, list[tuple[str, list[Record]]]]] = []
    for kind, areas in book.grouped().items():
        ordered = sorted(areas, key=lambda a: (a == "general", a))
        out.append((kind.replace("_", " ").capitalize(), [(a, list(areas[a])) for a in ordered]))
    return out


@router.get("/download/{fmt}")
def download(
    place: ProjectDep,
    fmt: Annotated[FileFormat, Path(description="agents, claude or cursor")],
    as_of: str = "",
) -> Response:
    """The rule file's content generated from the reviewed rules, as a file to save."""
    book = build_rulebook(place.memory, place.scope, as_of=_day(as_of, "as of", end=True))
    headers = {"Content-Disposition": f'attachment; filename="{DOWNLOADS[fmt]}"', "Cache-Control": "no-store"}
    return PlainTextResponse(render(book, fmt), headers=headers)
