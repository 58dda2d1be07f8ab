"""Every error the HTTP API returns has one shape, built here and only here:

    {"error": {"code": "not_found", "message": "no record 'k7f3q2xa' in this space", "details": null}}

`ForethoughtError` codes map to statuses through `STATUSES` (first match wins, so subclasses come
before their parents); the server's own refusals (401, 413, 429...) raise `ApiError`; request
validation is 422 with pydantic's findings in `details`; anything unexpected is a 500 whose body
says nothing about the code (the traceback goes to the log).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path

from forethought.errors import (
    BackendError,
    Conflict,
    ForethoughtError,
    IntegrityError,
    InvalidInput,
    InvalidTransition,
    ModelUnavailable,
    NotFound,
    StoreBusy,
)

__all__ = ["STATUSES", "ApiError", "error_body", "error_response", "install_error_handlers", "status_for"]

log = logging.getLogger("forethought.server")

STATUSES: list[tuple[type[ForethoughtError], int]] = [
    (InvalidTransition, 409),
    (InvalidInput, 422),
    (NotFound, 404),
    (Conflict, 409),
    (StoreBusy, 503),
    (ModelUnavailable, 503),
    (IntegrityError, 500),
    (BackendError, 503),
]
# Codes for refusals that come from HTTP itself rather than from Forethought.
_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
}


class ApiError(Exception):
    """A refusal by the HTTP layer itself (authentication, limits, unknown app...)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        details: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = dict(headers or {})


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details}}


def error_response(
    status: int, code: str, message: str, details: Any = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(code, message, details), status_code=status, headers=dict(headers or {}))


def status_for(exc: ForethoughtError) -> int:
    return next((status for kind, status in STATUSES if isinstance(exc, kind)), 500)


async def _forethought_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ForethoughtError)
    status = status_for(exc)
    if status == 500:  # an integrity failure: say nothing of what was found; the log has it
        log.error("integrity failure on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(status, exc.code, "internal server error; see the server log")
    headers = {"Retry-After": "1"} if isinstance(exc, StoreBusy) else None
    return error_response(status, exc.code, exc.summary, headers=headers)


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message, exc.details, exc.headers)


def _clean(error: Mapping[str, Any]) -> dict[str, Any]:
    # The offending input is left out: it may be large, or a secret the caller mistyped.
    return {
        "loc": [str(part) for part in error.get("loc", ())],
        "msg": str(error.get("msg", "")),
        "type": error.get("type"),
    }


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    details = [_clean(e) for e in exc.errors()]
    first = details[0] if details else {"loc": [], "msg": "invalid request"}
    where = ".".join(p for p in first["loc"] if p not in ("body", "query", "path", "header"))
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return error_response(422, "validation_error", message, details)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400 and isinstance(exc.__cause__, ValueError):
        # FastAPI answers 400 for a body json.loads refuses with a ValueError (bytes that are not
        # UTF-8, an integer of thousands of digits) but 422 for one that is not JSON; to a client
        # both are the same mistake, so both are 422.
        what = "UTF-8 JSON text" if isinstance(exc.__cause__, UnicodeDecodeError) else "JSON this server can read"
        finding = {"loc": ["body"], "msg": f"the body is not {what}", "type": "json_invalid"}
        return error_response(422, "validation_error", str(finding["msg"]), [finding])
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    if exc.status_code == 404:
        message = f"no route {request.method} {request.url.path}"
    elif exc.status_code == 405:
        message = f"method {request.method} is not allowed on {request.url.path}"
        # Starlette names only the first route that matched the path; name every one's methods.
        allowed = _allowed(request)
        headers = {"Allow": ", ".join(allowed)} if allowed else exc.headers
        return error_response(405, code, message, headers=headers)
    else:
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
    return error_response(exc.status_code, code, message, headers=exc.headers)


def _allowed(request: Request) -> list[str]:
    """The methods of every documented route whose template matches the request's path."""
    methods: set[str] = set()
    for path, operations in request.app.openapi().get("paths", {}).items():
        if compile_path(path)[0].match(request.url.path):
            methods.update(method.upper() for method in operations)
    return sorted(methods)


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal_error", "internal server error")


def install_error_handlers(app: FastAPI) -> None:
    """Map every error to the one envelope; the only place the API decides error statuses."""
    app.add_exception_handler(ForethoughtError, _forethought_error)
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
