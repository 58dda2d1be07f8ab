"""A project's stale queue: the rules due for re-confirmation (review date passed, or marked stale
by a read), each with Confirm (it stands; renews its review date, with an optional note) and
Retire (a retraction, with why; it stays in history). Both are POST forms carrying the session's
CSRF token. There is no working-tree check here: the server never reads a path a browser names
(`forethought project stale --repo` does it where the code is).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Query, Request, Response
from fastapi.responses import RedirectResponse

from forethought.errors import InvalidInput
from forethought.projects.stale import REVIEW_DAYS, review_queue
from forethought.server.schemas.records import MAX_REASON
from forethought.web.deps import FormProjectDep, Place, ProjectDep
from forethought.web.errors import PageRoute
from forethought.web.render import page

__all__ = ["MAX_SHOWN", "router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/stale", route_class=PageRoute, include_in_schema=False)

MAX_SHOWN = 200  # rules listed on the page; the API pages through the rest
Days = Annotated[int, Query(ge=1, le=3650)]
Note = Annotated[str, Form(max_length=MAX_REASON)]
FormDays = Annotated[int, Form(ge=1, le=3650)]


def _back(place: Place, days: int) -> RedirectResponse:
    return RedirectResponse(place.url("stale") + (f"?days={days}" if days != REVIEW_DAYS else ""), status_code=303)


@router.get("")
def stale(request: Request, place: ProjectDep, days: Days = REVIEW_DAYS) -> Response:
    queue = review_queue(place.memory, place.scope, days=days)
    return page(
        request,
        "stale.html",
        place=place,
        title="Stale",
        queue=queue[:MAX_SHOWN],
        more=max(0, len(queue) - MAX_SHOWN),
        days=days,
        default_days=REVIEW_DAYS,
        max_reason=MAX_REASON,
    )


@router.post("/{record_id}/confirm")
def confirm(place: FormProjectDep, record_id: str, note: Note = "", days: FormDays = REVIEW_DAYS) -> RedirectResponse:
    try:
        place.memory.note_review(place.scope, record_id, "confirmed", reason=note.strip() or None)
    except InvalidInput as exc:
        place.viewer.notify(str(exc), error=True)
    else:
        record = place.memory.get(place.scope, record_id)
        place.viewer.notify(f"Confirmed {record.handle}: next review in {days} days.")
    return _back(place, days)


@router.post("/{record_id}/retire")
def retire(place: FormProjectDep, record_id: str, why: Note = "", days: FormDays = REVIEW_DAYS) -> RedirectResponse:
    try:
        done = place.memory.retract(place.scope, record_id, why=why)
    except InvalidInput as exc:
        place.viewer.notify(str(exc), error=True)
    else:
        place.viewer.notify(f"Retired {done.handle}: retracted, it stays in history and leaves the rulebook.")
    return _back(place, days)
