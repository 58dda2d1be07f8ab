"""The review inbox: candidates with their evidence marked in the source turn, the decisions on
them, and what the validator filtered out (with its reasons)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from forethought.domain import Record, RelationLabel, Status
from forethought.domain.candidates import Flag
from forethought.errors import InvalidInput, NotFound
from forethought.web.deps import FormPlaceDep, Place, PlaceDep
from forethought.web.errors import PageRoute
from forethought.web.evidence import Quoted, TurnSource, quoted
from forethought.web.render import page

__all__ = ["router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/inbox", route_class=PageRoute, include_in_schema=False)

REPLACEABLE = 200  # active records offered as what a candidate supersedes


@dataclass(frozen=True)
class Pending:
    record: Record
    quotes: list[Quoted]
    target: Record | None  # the record the relation points at
    replaceable: list[Record]  # active records it could supersede, those of its kind first

    @property
    def needs_edit(self) -> bool:
        """The façade refuses to approve instruction-like text until a person has edited it."""
        return Flag.INJECTION.value in self.record.flags

    @property
    def conflicts(self) -> bool:
        return self.record.relation is not None and self.record.relation.label is RelationLabel.CONFLICTS


@dataclass(frozen=True)
class Filtered:
    record: Record
    rule: str
    reason: str


def _target(place: Place, record: Record) -> Record | None:
    if record.relation is None or not record.relation.target_id:
        return None
    try:
        return place.memory.get(place.scope, record.relation.target_id)
    except NotFound:
        return None


def _replaceable(record: Record, active: list[Record]) -> list[Record]:
    return sorted(active, key=lambda r: (r.kind != record.kind, r.statement.casefold()))


@router.get("")
def inbox(request: Request, place: PlaceDep) -> Response:
    memory = place.memory
    found = memory.inbox(place.scope)
    source = TurnSource(memory, place.scope)
    active = memory.list_records(place.scope, statuses=(Status.ACTIVE,), limit=REPLACEABLE)
    pending = [Pending(r, quoted(r, source), _target(place, r), _replaceable(r, active)) for r in found.pending]
    # Why each was filtered is in its rejection event; one read of the recent log covers them.
    reasons = {
        e.record_id: e.reason or ""
        for e in memory.audit_events(place.scope, limit=1000)
        if e.record_id and e.to_status == "rejected"
    }
    filtered = [
        Filtered(
            r,
            next((f.removeprefix("validator:") for f in r.flags if f.startswith("validator:")), ""),
            reasons.get(r.id, ""),
        )
        for r in found.filtered
    ]
    return page(request, "inbox.html", place=place, title="Inbox", pending=pending, filtered=filtered)


def _back(place: Place) -> RedirectResponse:
    return RedirectResponse(place.url("inbox"), status_code=303)


@router.post("/from-excerpt")
def from_excerpt(
    place: FormPlaceDep,
    session_id: Annotated[str, Form(max_length=64)] = "",
    turn_index: Annotated[int, Form(ge=0, le=100_000)] = 0,
    quote: Annotated[str, Form(max_length=2_000)] = "",
    kind: Annotated[str, Form(max_length=64)] = "",
) -> RedirectResponse:
    """A brief's past-session excerpt filed as a candidate (it then waits here like any other)."""
    try:
        done = place.memory.promote_excerpt(
            place.scope, session_id, turn_index, quote, kind=kind.strip() or None, source="web"
        )
    except (InvalidInput, NotFound) as exc:
        place.viewer.notify(str(exc), error=True)
    else:
        filed = ", ".join(f"{i.record.handle} ({i.outcome})" for i in done.items) or "nothing"
        refused = f"; refused: {', '.join(r.rule for r in done.rejected)}" if done.rejected else ""
        place.viewer.notify(f"Filed the excerpt as {filed}{refused}.")
    return _back(place)


@router.post("/{record_id}/approve")
def approve(
    place: FormPlaceDep,
    record_id: str,
    conflict: Annotated[Literal["", "supersede", "keep_both"], Form()] = "",
    supersedes: Annotated[str, Form()] = "",
) -> RedirectResponse:
    """Approve; with `conflict`, the reviewer's choice for a conflicting candidate; with
    `supersedes`, the active record this candidate replaces."""
    try:
        done = place.memory.approve(
            place.scope, record_id, conflict=conflict or None, supersedes=supersedes.strip() or None
        )
    except InvalidInput as exc:  # flagged, or a conflict without a choice: say why on the inbox
        place.viewer.notify(str(exc), error=True)
    else:
        how = {"supersede": ", replacing the record it conflicts with", "keep_both": ", keeping both"}
        replaced = f", replacing {supersedes.strip()}" if supersedes.strip() else how.get(conflict, "")
        place.viewer.notify(f"Approved {done.handle}{replaced}.")
    return _back(place)


@router.post("/{record_id}/edit")
def edit(
    place: FormPlaceDep,
    record_id: str,
    text: Annotated[str, Form()] = "",
    tags: Annotated[str, Form()] = "",
) -> RedirectResponse:
    try:
        done = place.memory.edit(place.scope, record_id, text, tags=tags.split() if tags.strip() else None)
    except InvalidInput as exc:
        place.viewer.notify(str(exc), error=True)
    else:
        place.viewer.notify(f"Saved your edit as {done.handle}; it waits here for approval.")
    return _back(place)


@router.post("/{record_id}/reject")
def reject(place: FormPlaceDep, record_id: str, reason: Annotated[str, Form()] = "") -> RedirectResponse:
    try:
        done = place.memory.reject(place.scope, record_id, reason=reason.strip() or None)
    except InvalidInput as exc:
        place.viewer.notify(str(exc), error=True)
    else:
        place.viewer.notify(f"Rejected {done.handle}.")
    return _back(place)
