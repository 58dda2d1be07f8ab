"""Headers every response carries, and the Host a request must name.

A pure ASGI middleware, outermost, so what it adds reaches every response: the API's JSON, the
workspace's pages, the OpenAPI docs, the static files, and the refusals made before any route runs
(413, 422 for deep JSON, 429, 404). A header a route set itself (a page's CSP, a static file's
`Cache-Control`) is kept.

- `Cache-Control: no-store` unless the response says otherwise: API answers hold a workspace's
  memory and must not sit in a shared or browser cache.
- `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: same-origin`, and a
  CSP with `frame-ancestors 'none'`: no response can be framed (clickjacking) or sniffed into HTML.
  The interactive docs (`/docs`, `/redoc`) load their scripts from a CDN, so their CSP only forbids
  framing; every other response gets the workspace's strict policy.
- Host: with an allow-list, a request whose `Host` header names another host is refused with 400
  before anything else runs. A DNS-rebinding page reaches a loopback server under its own domain
  name, and this is what tells the two apart (`forethought serve` derives the list from the bound
  address; see docs/api.md, "Host names").
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable, Mapping, Sequence

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from forethought.server.errors import error_body

__all__ = ["DOCS_PATHS", "LOOPBACK_HOSTS", "SECURITY_HEADERS", "SecurityHeaders", "host_name", "hosts_for_bind"]

SECURITY_HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
_DOCS_CSP = "frame-ancestors 'none'"
DOCS_PATHS = ("/docs", "/redoc")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def host_name(header: str) -> str:
    """The host of a `Host` header, lowercased, without its port or a trailing dot
    (`[::1]:8765` -> `[::1]`, `LocalHost.:80` -> `localhost`)."""
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end > 0 else value
    return value.rsplit(":", 1)[0].rstrip(".") if value.count(":") == 1 else value.rstrip(".")


def hosts_for_bind(bound: str, given: Sequence[str] = ()) -> tuple[str, ...]:
    """The Host names a server bound to `bound` answers: the loopback names for a loopback address,
    the address itself for any other one, nothing (any host) for every interface (`0.0.0.0`, `::`)
    unless `given` names some; `given` (the `--allowed-host` option) is always added."""
    extra = tuple(host_name(h) for h in given if h.strip())
    address = bound.strip().strip("[]")
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # a name: localhost, or the machine's own name
        own: tuple[str, ...] = LOOPBACK_HOSTS if address.lower() == "localhost" else (host_name(address),)
    else:
        if ip.is_unspecified:
            return extra
        own = LOOPBACK_HOSTS if ip.is_loopback else (f"[{ip}]" if ip.version == 6 else str(ip),)
    return tuple(dict.fromkeys((*own, *extra)))


class SecurityHeaders:
    """Adds the security headers to every response; refuses a `Host` outside `allowed_hosts`
    (empty: any host is accepted, as when the server is bound to every interface)."""

    def __init__(self, app: ASGIApp, *, allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(host_name(h) for h in allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        extra = _headers_for(path)
        if self.allowed and not self._host_allowed(scope):
            await _refuse_host(send, extra)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                added = [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _host_allowed(self, scope: Scope) -> bool:
        hosts = [v for k, v in scope.get("headers", []) if k.lower() == b"host"]
        if len(hosts) != 1:
            return False
        return host_name(hosts[0].decode("latin-1")) in self.allowed


def _headers_for(path: str) -> list[tuple[bytes, bytes]]:
    docs = path in DOCS_PATHS or path.startswith(tuple(p + "/" for p in DOCS_PATHS))
    values = {**SECURITY_HEADERS, "Cache-Control": "no-store"}
    if docs:
        values["Content-Security-Policy"] = _DOCS_CSP
    return [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in values.items()]


async def _refuse_host(send: Send, extra: list[tuple[bytes, bytes]]) -> None:
    message = "the Host header does not name this server (see docs/api.md, 'Host names')"
    payload = json.dumps(error_body("bad_host", message)).encode("utf-8")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode("ascii")),
        *extra,
    ]
    await send({"type": "http.response.start", "status": 400, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
