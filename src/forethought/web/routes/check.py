"""The check playground: a draft, or a unified diff, checked against the subject's memory.

A diff (chosen, or detected when the mode is "auto") is checked by the lines it adds, file by
file, and every finding shows its file and line (`src/dates.ts:2`); a draft may name the file it
is for, so rules about other files stay off it. The form posts: what is pasted stays out of URLs.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Form, Request, Response

from forethought.errors import InvalidInput
from forethought.pipeline.check import MAX_DRAFT_CHARS
from forethought.pipeline.diffs import looks_like_diff
from forethought.pipeline.reports import CheckReport
from forethought.web.deps import FormPlaceDep, Place, PlaceDep
from forethought.web.errors import PageRoute
from forethought.web.render import page

__all__ = ["MODES", "router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/check", route_class=PageRoute, include_in_schema=False)

MODES = ("auto", "diff", "content")
Mode = Literal["auto", "diff", "content"]
MAX_PATH = 500


def _page(request: Request, place: Place, *, draft: str = "", path: str = "", mode: str = "auto",
          report: CheckReport | None = None, diff: bool = False, error: str | None = None) -> Response:  # fmt: skip
    return page(
        request,
        "check.html",
        place=place,
        status=422 if error else 200,
        title="Check",
        draft=draft,
        path=path,
        mode=mode,
        modes=MODES,
        report=report,
        diff=diff,
        error=error,
        max_path=MAX_PATH,
    )


@router.get("")
def check_form(request: Request, place: PlaceDep) -> Response:
    return _page(request, place)


@router.post("")
def check(
    request: Request,
    place: FormPlaceDep,
    draft: Annotated[str, Form(max_length=4 * MAX_DRAFT_CHARS)] = "",
    path: Annotated[str, Form(max_length=MAX_PATH)] = "",
    mode: Annotated[Mode, Form()] = "auto",
) -> Response:
    is_diff = mode == "diff" or (mode == "auto" and looks_like_diff(draft))
    where = path.strip() or None
    try:
        report = place.memory.check(place.scope, draft, path=None if is_diff else where, diff=is_diff)
    except InvalidInput as exc:
        return _page(request, place, draft=draft, path=path, mode=mode, error=str(exc))
    return _page(request, place, draft=draft, path=path, mode=mode, report=report, diff=is_diff)
