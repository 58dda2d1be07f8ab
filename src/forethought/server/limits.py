"""Request limits, enforced before the application sees a byte: body size and JSON depth.

A pure ASGI middleware: a declared `Content-Length` over the limit is refused at once; a body
without one (chunked) is read only until it passes the limit, then refused — nothing more of it
is read. A body within the limit is buffered and replayed to the application, after a check that
a JSON body does not nest deeper than allowed (deep nesting costs the parser recursion, and no
request of this API needs more than a few levels).
"""

from __future__ import annotations

import html
import json
from typing import Any

import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from forethought.server.errors import error_body
from forethought.text.jsontext import json_too_deep

__all__ = ["WEB_PREFIX", "RequestLimits", "json_too_deep"]

WEB_PREFIX = "/web"  # the workspace's pages: a refusal there is a page, not JSON
_PAGE = (
    "<!doctype html><html lang=en><meta charset=utf-8><title>Request refused · Forethought</title>"
    "<body><h1>Request refused</h1><p>{message}.</p><p><a href=/web/>Back to the workspace</a></p></body></html>"
)


class RequestLimits:
    def __init__(self, app: ASGIApp, *, max_body_bytes: int, max_json_depth: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_json_depth = max_json_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        declared = headers.get("content-length", "")
        # ASCII digits only: `int` would take other scripts' digits, and fail on a superscript.
        if declared.isascii() and declared.isdigit() and int(declared) > self.max_body_bytes:
            await _refuse(scope, send, 413, "payload_too_large", self._too_large())
            return
        if (
            scope.get("method") in ("GET", "HEAD", "OPTIONS", "DELETE")
            and not declared
            and "transfer-encoding" not in headers
        ):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                await _refuse(scope, send, 413, "payload_too_large", self._too_large())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        # Every body is checked, whatever its declared type: the framework parses JSON without one.
        if await _too_deep(body, self.max_json_depth):
            message_text = f"JSON nests deeper than {self.max_json_depth} levels"
            await _refuse(scope, send, 422, "json_too_deep", message_text)
            return
        await self.app(scope, _replay(body, receive), send)

    def _too_large(self) -> str:
        return f"the request body is over the limit of {self.max_body_bytes:,} bytes"


async def _refuse(scope: Scope, send: Send, status: int, code: str, message: str) -> None:
    """The envelope for API clients; a small page for a browser posting a workspace form."""
    if str(scope.get("path", "")).startswith(WEB_PREFIX):
        payload = _PAGE.format(message=html.escape(message)).encode("utf-8")
        content_type = b"text/html; charset=utf-8"
    else:
        payload = json.dumps(error_body(code, message)).encode("utf-8")
        content_type = b"application/json"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(payload)).encode("ascii")),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


async def _too_deep(body: bytes, limit: int) -> bool:
    if len(body) < 64 * 1024:
        return json_too_deep(body, limit)
    # A large body takes a noticeable time to scan: keep the event loop free meanwhile.
    return await anyio.to_thread.run_sync(json_too_deep, body, limit)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        message: Any = await receive()  # after the body: wait for the disconnect, as ASGI says
        return message  # type: ignore[no-any-return]

    return replay
