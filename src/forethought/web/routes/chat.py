"""Chat with a subject: each message is one governed turn (`memory.turn`), and the side panel
shows what memory did for it, read from the turn's trace."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from forethought.domain import Session
from forethought.errors import InvalidInput
from forethought.web.deps import FormPlaceDep, Place, PlaceDep, erasing_refused
from forethought.web.errors import PageRoute
from forethought.web.render import page
from forethought.web.traces import latest_trace_of, read_trace

__all__ = ["router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}", route_class=PageRoute, include_in_schema=False)


def _chat(
    request: Request,
    place: Place,
    session_id: str | None,
    trace_id: str | None,
    *,
    draft: str = "",
    error: str | None = None,
    status: int = 200,
) -> Response:
    memory = place.memory
    session: Session | None = memory.get_session(place.scope, session_id) if session_id else None
    if session is not None and trace_id is None:
        trace_id = latest_trace_of(memory, place.scope, session.id)
    trace = read_trace(memory, place.scope, trace_id) if trace_id else None
    return page(
        request,
        "chat.html",
        place=place,
        status=status,
        title="Chat",
        session=session,
        sessions=memory.list_sessions(place.scope, limit=15),
        trace=trace,
        draft=draft,
        error=error,
    )


@router.get("/chat")
def chat(request: Request, place: PlaceDep, session: str | None = None, trace: str | None = None) -> Response:
    return _chat(request, place, session or None, trace or None)


@router.post("/chat")
def send(
    request: Request,
    place: FormPlaceDep,
    message: Annotated[str, Form()] = "",
    session: Annotated[str, Form()] = "",
) -> Response:
    try:
        result = place.memory.turn(place.scope, message, session_id=session or None)
    except InvalidInput as exc:  # an empty or oversized message: say so above the form
        return _chat(request, place, session or None, None, draft=message, error=str(exc), status=422)
    place.viewer.services.metrics.turn(mode=result.trace.mode, blocked=result.blocked)
    query = urlencode({"session": result.session_id, "trace": result.trace_id})
    return RedirectResponse(f"{place.url('chat')}?{query}", status_code=303)


@router.post("/chat/{session_id}/delete")
def delete_session(place: FormPlaceDep, session_id: str, confirm: Annotated[str, Form()] = "") -> RedirectResponse:
    """Erase one conversation (its turns, index entries and traces) after the confirmation box."""
    back = f"{place.url('chat')}?{urlencode({'session': session_id})}"
    ask = "Tick the confirmation to delete: it cannot be undone."
    if refused := erasing_refused(place, back, confirmed=confirm == "yes", ask=ask):
        return refused
    turns = place.memory.delete_session(place.scope, session_id)
    place.viewer.notify(f"Deleted the conversation and its {turns} turn(s). Memories taken from it stay.")
    return RedirectResponse(place.url("chat"), status_code=303)
