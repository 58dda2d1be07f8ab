"""Dependencies of the workspace's pages: the logged-in viewer, a form's CSRF check, and the
subject (space) a page is about.

As in the HTTP API (`forethought.server.deps`), identity comes first and the space is built on
the server from the session's workspace plus the app and subject named in the URL, so a browser
logged in to one workspace has no way to name another workspace's memory.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated
from urllib.parse import quote

from fastapi import Depends, Form, Path, Request
from fastapi.responses import RedirectResponse

from forethought.apps.base import App
from forethought.domain import SpaceKey
from forethought.facade import Forethought, Scope
from forethought.memory import UnknownApp
from forethought.server.deps import ServicesDep
from forethought.server.services import Services
from forethought.web.errors import CsrfRefused, LoginRequired, PageError
from forethought.web.jobs import ImportJobs
from forethought.web.sessions import SESSION_COOKIE, Notice, SessionStore, WebSession, same_token

__all__ = [
    "ADMIN_ONLY",
    "PROJECT_APP",
    "FormPlaceDep",
    "FormProjectDep",
    "FormViewerDep",
    "Place",
    "PlaceDep",
    "ProjectDep",
    "StateDep",
    "Viewer",
    "ViewerDep",
    "WebState",
    "erasing_refused",
    "get_state",
    "landing_url",
]

_state_lock = threading.Lock()


@dataclass(frozen=True)
class WebState:
    """What the workspace keeps per application: browser sessions and imports (both the store's)."""

    sessions: SessionStore
    imports: ImportJobs


def get_state(request: Request, services: ServicesDep) -> WebState:
    # Kept on the application (not the module) so that several apps in one process, as in the
    # tests, each wait for their own import threads; sessions and import jobs are the store's,
    # shared by every process on it.
    with _state_lock:
        state: WebState | None = getattr(request.app.state, "web", None)
        if state is None:
            state = WebState(SessionStore(services.memory.store.logins), ImportJobs(services.memory.store.imports))
            request.app.state.web = state
    return state


StateDep = Annotated[WebState, Depends(get_state)]


@dataclass(frozen=True)
class Viewer:
    """The logged-in browser: its session, its key's workspace, and the memory acting as the key."""

    token: str
    session: WebSession
    memory: Forethought
    services: Services
    state: WebState

    @property
    def workspace(self) -> str:
        return self.session.workspace

    @property
    def key_id(self) -> str:
        return self.session.key_id

    @property
    def csrf(self) -> str:
        return self.session.csrf

    @cached_property
    def admin(self) -> bool:
        """Whether the key this browser logged in with is an admin key (erasing needs one); read
        once per request, however many templates and routes ask."""
        return any(k.id == self.key_id and k.admin and k.active for k in self.memory.list_api_keys(self.workspace))

    def notify(self, text: str, *, error: bool = False) -> None:
        self.state.sessions.notify(self.session, text, "error" if error else "ok")

    def take_notices(self) -> list[Notice]:
        return self.state.sessions.take_notices(self.session)


def get_viewer(request: Request, services: ServicesDep, state: StateDep) -> Viewer:
    token = request.cookies.get(SESSION_COOKIE)
    session = state.sessions.get(token)
    if token is None or session is None:
        raise LoginRequired()
    # Checked on every request: revoking the key ends its browser sessions at once.
    keys = services.memory.list_api_keys(session.workspace)
    if not any(k.id == session.key_id and k.active for k in keys):
        state.sessions.drop(token)
        raise LoginRequired()
    verdict = services.limiter.take(session.key_id)  # the same per-key budget as the API
    if not verdict.allowed:
        services.metrics.rate_limited()
        raise PageError(
            429,
            f"too many requests with this key; try again in {verdict.retry_after_s} s",
            headers={"Retry-After": str(verdict.retry_after_s)},
        )
    return Viewer(token, session, services.memory.acting_as(f"key:{session.key_id}"), services, state)


ViewerDep = Annotated[Viewer, Depends(get_viewer)]


def checked_viewer(viewer: ViewerDep, csrf: Annotated[str, Form()] = "") -> Viewer:
    """The viewer, for a form that carried this session's CSRF token (else 403)."""
    if not same_token(csrf, viewer.csrf):
        raise CsrfRefused()
    return viewer


FormViewerDep = Annotated[Viewer, Depends(checked_viewer)]


@dataclass(frozen=True)
class Place:
    """The subject a page is about: (viewer's workspace, app's subject type, subject id)."""

    viewer: Viewer
    scope: Scope

    @property
    def memory(self) -> Forethought:
        return self.viewer.memory

    @property
    def app(self) -> App:
        return self.scope.app

    @property
    def key(self) -> SpaceKey:
        return self.scope.key

    @property
    def subject(self) -> str:
        return self.key.subject_id

    def url(self, page: str = "chat") -> str:
        return subject_url(self.app.name, self.subject, page)


def subject_url(app: str, subject: str, page: str = "chat") -> str:
    return f"/web/apps/{quote(app, safe='')}/{quote(subject, safe='')}/{page}"


def landing_url(app: str, subject: str) -> str:
    """Where a subject opens: a project on its overview, any other subject on its chat."""
    return subject_url(app, subject, "overview" if app == PROJECT_APP else "chat")


def _no_app(exc: UnknownApp) -> PageError:
    return PageError(404, f"There is no app called {exc.name!r} (known: {', '.join(exc.known)}).")


def resolve_app(viewer: Viewer, name: str) -> App:
    try:
        return viewer.memory.app(name)
    except UnknownApp as exc:
        raise _no_app(exc) from None


def _place(viewer: Viewer, app: str, subject: str) -> Place:
    try:
        return Place(viewer, viewer.memory.scope(app, subject, workspace=viewer.workspace))
    except UnknownApp as exc:
        raise _no_app(exc) from None


AppName = Annotated[str, Path(description="The app: generic, career, support, project (or a plugin's).")]
SubjectId = Annotated[str, Path(description="The subject within the app.")]


def get_place(viewer: ViewerDep, app: AppName, subject: SubjectId) -> Place:
    return _place(viewer, app, subject)


def get_form_place(viewer: FormViewerDep, app: AppName, subject: SubjectId) -> Place:
    return _place(viewer, app, subject)


PlaceDep = Annotated[Place, Depends(get_place)]
FormPlaceDep = Annotated[Place, Depends(get_form_place)]

PROJECT_APP = "project"


def _project(place: Place) -> Place:
    if place.app.name != PROJECT_APP:
        raise PageError(404, f"This page belongs to the project app; {place.app.name!r} has none.")
    return place


def get_project(place: PlaceDep) -> Place:
    """The subject, for a page only a project has (rulebook, stale queue, documents); else 404."""
    return _project(place)


def get_form_project(place: FormPlaceDep) -> Place:
    return _project(place)


ProjectDep = Annotated[Place, Depends(get_project)]
FormProjectDep = Annotated[Place, Depends(get_form_project)]


ADMIN_ONLY = "Erasing needs an admin key: log in with one (forethought keys create --admin)."


def erasing_refused(place: Place, back: str, *, confirmed: bool, ask: str) -> RedirectResponse | None:
    """The way back, with a notice, when this browser may not erase (no admin key) or has not
    confirmed (`ask` says how); None when the erasure may go on."""
    why = ADMIN_ONLY if not place.viewer.admin else None if confirmed else ask
    if why is None:
        return None
    place.viewer.notify(why, error=True)
    return RedirectResponse(back, status_code=303)
