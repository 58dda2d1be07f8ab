"""Activity: the subject's audit log and its traces, and a trace's page with every stage."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from forethought.domain.limits import parse_sequence
from forethought.web.deps import PlaceDep
from forethought.web.errors import PageRoute
from forethought.web.render import page
from forethought.web.traces import read_trace

__all__ = ["router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/activity", route_class=PageRoute, include_in_schema=False)

PAGE = 50


@router.get("")
def activity(request: Request, place: PlaceDep, before: str | None = None) -> Response:
    memory = place.memory
    older_than = None if before is None else parse_sequence(before, field="before")
    events = memory.audit_events(place.scope, limit=PAGE + 1, before_seq=older_than)
    older = events[PAGE - 1].seq if len(events) > PAGE else None
    return page(
        request,
        "activity.html",
        place=place,
        title="Activity",
        events=events[:PAGE],
        older=older,
        traces=memory.list_traces(place.scope, limit=30),
    )


@router.get("/traces/{trace_id}")
def trace(request: Request, place: PlaceDep, trace_id: str) -> Response:
    view = read_trace(place.memory, place.scope, trace_id)
    return page(request, "trace.html", place=place, title=f"Trace {view.id}", trace=view)
