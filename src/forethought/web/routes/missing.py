"""Any other workspace address: a page saying so (registered last)."""

from __future__ import annotations

from fastapi import APIRouter

from forethought.web.errors import PageError, PageRoute

__all__ = ["router"]

router = APIRouter(route_class=PageRoute, include_in_schema=False)


@router.api_route("/web/{rest:path}", methods=["GET", "POST"])
def missing(rest: str) -> None:
    raise PageError(404, "There is no page at this address.")
