"""The picker: the apps, the subjects each holds in the viewer's workspace, and "open subject"."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse

from forethought.apps.base import App
from forethought.domain import Space
from forethought.domain.limits import check_name
from forethought.errors import InvalidInput
from forethought.plugins import registry
from forethought.web.deps import Viewer, ViewerDep, landing_url, resolve_app, subject_url
from forethought.web.errors import PageRoute
from forethought.web.render import page

__all__ = ["router"]

router = APIRouter(route_class=PageRoute, include_in_schema=False)


@dataclass(frozen=True)
class AppSubjects:
    app: App
    subjects: list[Space]

    def url(self, subject: str, page: str | None = None) -> str:
        """The subject's `page`, or the page it opens on."""
        return landing_url(self.app.name, subject) if page is None else subject_url(self.app.name, subject, page)


def _apps(viewer: Viewer) -> list[AppSubjects]:
    apps = [registry().app(name) for name in registry().names("app")]
    return [AppSubjects(a, viewer.memory.list_spaces(viewer.workspace, subject_type=a.subject_type)) for a in apps]


def _picker(request: Request, viewer: Viewer, *, error: str | None = None, status: int = 200) -> Response:
    return page(request, "picker.html", viewer=viewer, status=status, apps=_apps(viewer), error=error, title="Subjects")


@router.get("/web")
def picker(request: Request, viewer: ViewerDep) -> Response:
    return _picker(request, viewer)


@router.get("/web/open")
def open_subject(request: Request, viewer: ViewerDep, app: str = "generic", subject: str = "") -> Response:
    """A subject by id (it need not exist yet: its first memory creates it)."""
    chosen = resolve_app(viewer, app)
    name = subject.strip()
    if not name:
        return _picker(request, viewer, error="Type a subject id to open it.", status=422)
    name = check_name(name, field="subject")
    if "/" in name:  # a path segment, as in the HTTP API
        raise InvalidInput("subject: a subject id cannot contain '/'")
    return RedirectResponse(landing_url(chosen.name, name), status_code=303)
