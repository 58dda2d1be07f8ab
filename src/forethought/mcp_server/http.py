"""Streamable HTTP: the MCP endpoint at `/mcp`, behind an API key on every request.

`RequireApiKey` wraps the SDK's ASGI app: a request without `Authorization: Bearer <key>`, or
with a key that is unknown, malformed or revoked, gets 401 before the MCP layer sees it — and 429
with `Retry-After` once the client's address or the key id it claims has failed too often lately
(the budgets of `forethought.server.authguard`; a valid key is never refused for it). A valid
key's workspace is put on the request (ASGI scope) and read back by `caller_from_request` for each
tool call — the workspace always comes from the key on *that* request, so a session id never
carries one caller's workspace to another. The server is stateless (no MCP session to hijack) and
answers with JSON; it binds loopback unless told otherwise, where the SDK also refuses requests
whose Host or Origin header is not loopback (DNS rebinding).
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from mcp.server import ServerRequestContext
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from forethought.facade import Forethought
from forethought.mcp_server.handlers import Caller, Defaults
from forethought.mcp_server.server import build_server
from forethought.server.authguard import AuthGuard
from forethought.server.headers import SecurityHeaders
from forethought.server.settings import ServerSettings

__all__ = ["LOOPBACK", "MCP_PATH", "RequireApiKey", "build_http_app", "caller_from_request", "run_http"]

log = logging.getLogger("forethought.mcp")

MCP_PATH = "/mcp"
_SCOPE_KEY = "forethought.caller"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class RequireApiKey:
    """ASGI middleware: every HTTP request needs a valid API key; the caller goes on the scope."""

    def __init__(self, app: ASGIApp, memory: Forethought, guard: AuthGuard | None = None) -> None:
        self.app = app
        self.memory = memory
        self.guard = guard or AuthGuard(ServerSettings())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan events pass through
            await self.app(scope, receive, send)
            return
        token = _bearer(scope)
        key = await anyio.to_thread.run_sync(self.memory.authenticate, token) if token else None
        failed = self.guard.failed(_address(scope), token) if key is None and token else None
        if failed is not None and not failed.allowed:
            wait = str(failed.retry_after_s)
            response = JSONResponse(
                {
                    "error": {
                        "code": "rate_limited",
                        "message": f"too many failed authentications from this address or for this key; wait {wait} s",
                        "details": None,
                    }
                },
                status_code=429,
                headers={"Retry-After": wait},
            )
            await response(scope, receive, send)
            return
        if key is None:
            response = JSONResponse(
                {
                    "error": {
                        "code": "unauthorized",
                        "message": "a valid API key is required: Authorization: Bearer <key>",
                        "details": None,
                    }
                },
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="forethought"'},
            )
            await response(scope, receive, send)
            return
        scope[_SCOPE_KEY] = Caller(workspace=key.workspace, key_id=key.id)
        await self.app(scope, receive, send)


def caller_from_request(ctx: ServerRequestContext[Any, Any]) -> Caller:
    """The caller `RequireApiKey` authenticated for this request. Fails closed: no caller, no call."""
    request = ctx.request
    caller = getattr(request, "scope", {}).get(_SCOPE_KEY) if request is not None else None
    if not isinstance(caller, Caller):
        raise RuntimeError("no authenticated caller on this request")
    return caller


def build_http_app(memory: Forethought, *, host: str = "127.0.0.1", defaults: Defaults | None = None) -> ASGIApp:
    server = build_server(memory, caller_from_request, defaults=defaults)
    inner = server.streamable_http_app(
        streamable_http_path=MCP_PATH, stateless_http=True, json_response=True, host=host
    )
    # The API's security headers on every answer (its own Host check answers 421 inside).
    return SecurityHeaders(RequireApiKey(inner, memory))


def run_http(memory: Forethought, *, host: str, port: int, defaults: Defaults | None = None) -> None:
    """Serve until interrupted."""
    import uvicorn

    if host not in LOOPBACK:
        log.warning("serving MCP on %s: reachable beyond this machine (an API key is still required)", host)
    app = build_http_app(memory, host=host, defaults=defaults)
    uvicorn.run(app, host=host, port=port, log_level="warning", lifespan="on")


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"authorization":
            text = value.decode("latin-1").strip()
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer":
                return None
            return token.strip() or None
    return None
