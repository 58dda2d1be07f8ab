"""How a page fails: the one place the workspace turns errors into pages.

Every route of the workspace uses `PageRoute`, which renders an error as an HTML page with a
plain message (never a traceback), sends a browser that is not logged in to the login page, and
adds the security headers to every response. Statuses follow the HTTP API's mapping
(`forethought.server.errors.status_for`), so a page and the API refuse the same input alike.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import quote

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

from forethought.errors import ForethoughtError
from forethought.server.errors import ApiError, status_for
from forethought.web.render import SECURITY_HEADERS, page

__all__ = ["CsrfRefused", "LoginRequired", "PageError", "PageRoute", "login_redirect"]

log = logging.getLogger("forethought.web")


class LoginRequired(Exception):
    """No session, an expired one, or one whose API key was revoked."""


class CsrfRefused(Exception):
    """A form arrived without this session's CSRF token."""


class PageError(Exception):
    """A refusal by the workspace itself (an unknown app, an import that is not yours...)."""

    def __init__(self, status: int, message: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}  # e.g. Retry-After on a 429


def login_redirect(request: Request) -> RedirectResponse:
    target = "/web/login"
    if request.method == "GET" and request.url.path.startswith("/web/"):
        wanted = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        target += "?next=" + quote(wanted, safe="")
    return RedirectResponse(target, status_code=303)


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "the form was not filled in correctly"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path", "form"))
    return f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid"))


def _failure(request: Request, exc: Exception) -> Response:
    if isinstance(exc, LoginRequired):
        return login_redirect(request)
    if isinstance(exc, CsrfRefused):
        return page(request, "error.html", status=403, message="This form has expired or did not come from this site.")
    if isinstance(exc, PageError | ApiError):
        response = page(request, "error.html", status=exc.status, message=exc.message)
        response.headers.update(exc.headers or {})
        return response
    if isinstance(exc, RequestValidationError):
        return page(request, "error.html", status=422, message=_validation_message(exc))
    if isinstance(exc, HTTPException):
        return page(request, "error.html", status=exc.status_code, message=str(exc.detail))
    if isinstance(exc, ForethoughtError):
        status = status_for(exc)
        if status >= 500:
            log.error("error on %s %s", request.method, request.url.path, exc_info=exc)
            message = "The memory store failed; see the server log."
        else:
            message = exc.summary
        return page(request, "error.html", status=status, message=message)
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return page(request, "error.html", status=500, message="Something went wrong; see the server log.")


class PageRoute(APIRoute):
    """An APIRoute whose failures are pages and whose responses carry the security headers."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                response = await handler(request)
            except Exception as exc:  # each kind becomes a page; nothing leaks a traceback
                response = _failure(request, exc)
            for name, value in SECURITY_HEADERS.items():
                response.headers.setdefault(name, value)
            return response

        return guarded
