"""Logging in and out, the way into the workspace, and its two static files."""

from __future__ import annotations

import secrets
from importlib.resources import files
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from forethought.server.deps import ServicesDep
from forethought.web.deps import FormViewerDep, StateDep
from forethought.web.errors import PageError, PageRoute
from forethought.web.render import page
from forethought.web.sessions import LOGIN_COOKIE, SESSION_COOKIE, same_token

__all__ = ["router"]

router = APIRouter(route_class=PageRoute, include_in_schema=False)

STATIC = {"app.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8"}


def _local(target: str | None) -> str:
    """Where to go after logging in: a workspace path of this site, never another site."""
    if target and target.startswith("/web/") and not target.startswith(("//", "/web//")) and "\\" not in target:
        return target
    return "/web"


def _cookie(response: Response, request: Request, name: str, value: str, *, path: str = "/") -> None:
    response.set_cookie(name, value, path=path, httponly=True, samesite="strict", secure=request.url.scheme == "https")


@router.get("/")
def root() -> RedirectResponse:
    return RedirectResponse("/web", status_code=307)


@router.get("/web/login")
def login_form(request: Request, state: StateDep, next: str | None = None) -> Response:
    if state.sessions.get(request.cookies.get(SESSION_COOKIE)) is not None:
        return RedirectResponse(_local(next), status_code=303)
    return _login_page(request, next)


def _login_page(request: Request, next: str | None, *, error: str | None = None, status: int = 200) -> Response:
    # Login has no session yet, so its form is guarded by a double-submit token: the same random
    # value in a SameSite=Strict cookie and in the form, which another site can't read or set.
    token = secrets.token_urlsafe(32)
    response = page(request, "login.html", status=status, login_token=token, next=_local(next), error=error)
    _cookie(response, request, LOGIN_COOKIE, token, path="/web/login")
    return response


@router.post("/web/login")
def login(
    request: Request,
    services: ServicesDep,
    state: StateDep,
    key: Annotated[str, Form()] = "",
    login_token: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "",
) -> Response:
    if not same_token(login_token, request.cookies.get(LOGIN_COOKIE, "")):
        raise PageError(403, "This login form has expired; open the login page again.")
    found = services.memory.authenticate(key.strip())
    if found is None:
        return _login_page(request, next, error="That API key is unknown or has been revoked.", status=401)
    state.sessions.drop(request.cookies.get(SESSION_COOKIE))
    token, _ = state.sessions.create(found.id, found.workspace)
    response = RedirectResponse(_local(next), status_code=303)
    _cookie(response, request, SESSION_COOKIE, token)
    response.delete_cookie(LOGIN_COOKIE, path="/web/login")
    return response


@router.post("/web/logout")
def logout(viewer: FormViewerDep) -> RedirectResponse:
    viewer.state.sessions.drop(viewer.token)
    response = RedirectResponse("/web/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return response


@router.get("/web/static/{name}")
def static(name: str) -> Response:
    if name not in STATIC:
        raise PageError(404, "No such file.")
    body = files("forethought.web").joinpath("static", name).read_bytes()
    return Response(body, media_type=STATIC[name], headers={"Cache-Control": "public, max-age=3600"})
