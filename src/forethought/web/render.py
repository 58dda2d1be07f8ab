"""Rendering pages: one Jinja2 environment (autoescaping everything), the context every page
shares, and the headers every response carries.

Memory text is data: templates print it with `{{ }}` only, so autoescaping turns any markup in a
statement, quote or turn into text. The pages carry no inline script or style, which lets the
Content-Security-Policy below forbid both.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from forethought.domain.ids import handle_for
from forethought.server.headers import SECURITY_HEADERS  # one set of headers for pages and API

if TYPE_CHECKING:
    from forethought.web.deps import Place, Viewer

__all__ = ["SECURITY_HEADERS", "page"]


def _when(value: datetime | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M UTC")
        except ValueError:
            return value
    return value.strftime("%Y-%m-%d %H:%M UTC")


def _day(value: datetime | str | None) -> str:
    return _when(value)[:10]


_env = jinja2.Environment(
    loader=jinja2.PackageLoader("forethought.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters["when"] = _when
_env.filters["day"] = _day
_env.filters["handle"] = handle_for
_templates = Jinja2Templates(env=_env)


def page(
    request: Request,
    template: str,
    *,
    viewer: Viewer | None = None,
    place: Place | None = None,
    status: int = 200,
    **context: Any,
) -> HTMLResponse:
    """Render `template` with the shared context: the viewer (for the CSRF token and the nav),
    the subject in view, the mode badge, and notices waiting to be shown."""
    viewer = viewer or (place.viewer if place is not None else None)
    shared: dict[str, Any] = {
        "viewer": viewer,
        "place": place,
        "heuristic": viewer is not None and viewer.memory.model is None,
        "notices": viewer.take_notices() if viewer is not None else [],
        "title": "",
    }
    shared.update(context)
    response = _templates.TemplateResponse(request, template, shared, status_code=status)
    response.headers["Cache-Control"] = "no-store"
    return response
