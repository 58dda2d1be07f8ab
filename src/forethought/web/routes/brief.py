"""The brief for a task: the memory that applies (each with its reason), unreviewed past-session
excerpts (each can be filed in the inbox), what was filtered and why, and the memory block a model
would receive."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response

from forethought.errors import InvalidInput
from forethought.web.deps import FormPlaceDep, Place, PlaceDep
from forethought.web.errors import PageRoute
from forethought.web.render import page

__all__ = ["router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}", route_class=PageRoute, include_in_schema=False)


@router.get("/brief")
def brief(request: Request, place: PlaceDep, task: str = "") -> Response:
    """A brief asked for by a link (`?task=`); the page's own form posts instead."""
    return _brief_page(request, place, task)


@router.post("/brief")
def brief_form(request: Request, place: FormPlaceDep, task: Annotated[str, Form()] = "") -> Response:
    """The form posts, so what is typed in the task box stays out of URLs, history and access logs."""
    return _brief_page(request, place, task)


def _brief_page(request: Request, place: Place, task: str) -> Response:
    made, error = None, None
    if task.strip():
        try:
            made = place.memory.brief(place.scope, task, limit=5)
        except InvalidInput as exc:
            error = str(exc)
    return page(
        request,
        "brief.html",
        place=place,
        status=422 if error else 200,
        title="Brief",
        task=task,
        brief=made,
        kinds=sorted(place.scope.app.kinds),
        error=error,
    )
