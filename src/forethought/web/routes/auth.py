"""Logging in and out, the way into the workspace, and its two static files.

Logins are budgeted (`server.authguard`): a wrong key counts against the client's address and the
key id it claims, and past the budget the answer is 429 with `Retry-After`; a right key is never
refused for others' mistakes, but each key may log in only so often, and hold only so many
sessions (`web.sessions`).
"""

from __future__ import annotations

import secrets
from importlib.resources import files
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from forethought.server.deps import ServicesDep, client_address
from forethought.server.ratelimit import Verdict
from forethought.server.services import Services
from forethought.web.deps import FormViewerDep, StateDep
from forethought.web.errors import PageError, PageRoute
from forethought.web.render import page
from forethought.web.sessions import LOGIN_COOKIE, SESSION_COOKIE, SessionsFull, same_token

__all__ = ["router"]

router = APIRouter(route_class=PageRoute, include_in_schema=False)

_FULL_RETRY_S = 60  # sessions end by logout or idleness; a minute is a fair time to look again

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
    presented = key.strip()
    found = services.memory.authenticate(presented)
    if found is None:
        failed = services.guard.failed(client_address(request), presented)
        if not failed.allowed:
            raise _too_many(services, "too many failed logins from this address or for this key", failed)
        return _login_page(request, next, error="That API key is unknown or has been revoked.", status=401)
    allowed = services.guard.login(found.id)
    if not allowed.allowed:
        raise _too_many(services, "too many logins with this key", allowed)
    state.sessions.drop(request.cookies.get(SESSION_COOKIE))
    try:
        token, _ = state.sessions.create(found.id, found.workspace)
    except SessionsFull as exc:
        services.metrics.rate_limited()
        raise PageError(429, exc.message, headers={"Retry-After": str(_FULL_RETRY_S)}) from None
    response = RedirectResponse(_local(next), status_code=303)
    _cookie(response, request, SESSION_COOKIE, token)
    response.delete_cookie(LOGIN_COOKIE, path="/web/login")
    return response


def _too_many(services: Services, what: str, verdict: Verdict) -> PageError:
    services.metrics.rate_limited()
    wait = verdict.retry_after_s
    return PageError(429, f"{what}; try again in {wait} s.", headers={"Retry-After": str(wait)})


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
