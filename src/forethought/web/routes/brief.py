"""The brief for a task: the memory that applies (each with its reason), unreviewed past-session
excerpts (each can be filed in the inbox), what was filtered and why, and the memory block a model
would receive."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from forethought.errors import InvalidInput
from forethought.web.deps import PlaceDep
from forethought.web.errors import PageRoute
from forethought.web.render import page

__all__ = ["router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}", route_class=PageRoute, include_in_schema=False)


@router.get("/brief")
def brief(request: Request, place: PlaceDep, task: str = "") -> Response:
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
