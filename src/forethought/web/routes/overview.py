"""A project's overview, the page a tech lead opens first: the rules in force by area (how many,
the newest), the proposals waiting in the inbox, the rules due for re-confirmation, the latest
changes (each supersession beside its replacement), the source documents filed last, what the
project inherits from its organisation, and the way to every project page."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from forethought.projects.overview import MAX_COUNTED, overview
from forethought.web.deps import ProjectDep
from forethought.web.errors import PageRoute
from forethought.web.render import page

__all__ = ["router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/overview", route_class=PageRoute, include_in_schema=False)


@router.get("")
def project_overview(request: Request, place: ProjectDep) -> Response:
    return page(
        request, "overview.html", place=place, title="Overview", view=overview(place.memory, place.scope),
        max_counted=MAX_COUNTED,
    )  # fmt: skip
