"""FakeOpenAIServer: a real HTTP server on loopback speaking the OpenAI chat-completions protocol.

For tests and benchmarks that must exercise the real client (sockets, timeouts, retries, headers)
without a provider. Each request, whatever its route, takes the next scripted behaviour (the
`default` once the queue is empty):

    with FakeOpenAIServer() as server:
        server.status(429, retry_after=0.01)
        server.reply('{"facts": []}', usage=Usage(prompt_tokens=12, completion_tokens=3))
        model = OpenAICompatibleModel.local(server.base_url, model="m")
        ...
        assert server.requests[-1].body["model"] == "m"

Routes: POST /v1/chat/completions and GET /v1/models (a `Reply` there answers the model list);
anything else is a 404 that consumes nothing. Requests are recorded with their JSON body and
headers, except the Authorization value: only whether it was sent, its scheme and, when the server
was given an `api_key`, whether it matched (a mismatch is answered 401 before the queue).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from forethought.llm.base import Usage
from forethought.llm.wire import completion_payload, model_list_payload
from forethought.loopback import LoopbackServer

__all__ = ["Behaviour", "FakeOpenAIServer", "Hang", "Raw", "RecordedRequest", "Reply", "Status"]


@dataclass(frozen=True)
class Reply:
    """A 200 chat completion. `usage`: given counts, "estimate" (≈ 4 characters a token) or "omit"."""

    content: str
    finish_reason: str = "stop"
    usage: Usage | Literal["estimate", "omit"] = "estimate"


@dataclass(frozen=True)
class Status:
    """An error answer with an OpenAI-style error body (and a Retry-After header if given)."""

    code: int
    retry_after: float | None = None
    message: str = "scripted error"


@dataclass(frozen=True)
class Hang:
    """Say nothing for `seconds` (past the client's timeout), then close the connection."""

    seconds: float


@dataclass(frozen=True)
class Raw:
    """Any body at all, e.g. a malformed one."""

    body: bytes
    code: int = 200
    content_type: str = "application/json"


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: Mapping[str, str]  # lower-cased names; Authorization left out
    auth_scheme: str | None  # "Bearer", or None when no Authorization header was sent
    auth_matches: bool | None  # None unless the server was given an api_key
    body: Any = field(default=None)  # the parsed JSON body (None if absent or not JSON)
    client_port: int = 0  # the client's side of the connection: equal ports, one pooled connection


Answer = Reply | Status | Hang | Raw
Behaviour = Answer | Callable[[RecordedRequest], Answer]


class FakeOpenAIServer(LoopbackServer):
    poll_interval_s = 0.05

    def __init__(
        self, *, default: Behaviour | None = None, model_id: str = "fake-model", api_key: str | None = None
    ) -> None:
        super().__init__()
        self.default: Behaviour = default if default is not None else Reply("ok")
        self.model_id = model_id
        self._api_key = api_key
        self._queue: deque[Behaviour] = deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping_event = threading.Event()

    # -- lifecycle -----------------------------------------------------------------------------

    def _serve(self, address: tuple[str, int]) -> _Server:
        httpd = _Server(address, _Handler)
        httpd.fake = self
        return httpd

    def _stopping(self) -> None:
        self._stopping_event.set()  # wakes any Hang

    # -- scripting -----------------------------------------------------------------------------

    def push(self, *behaviours: Behaviour) -> None:
        with self._lock:
            self._queue.extend(behaviours)

    def set_default(self, behaviour: Behaviour) -> None:
        self.default = behaviour

    def reply(
        self,
        content: str | Mapping[str, Any] | list[Any],
        *,
        usage: Usage | Literal["estimate", "omit"] = "estimate",
        finish_reason: str = "stop",
        times: int = 1,
    ) -> None:
        """Answer with `content` (a mapping or list is sent as its JSON text)."""
        text = content if isinstance(content, str) else json.dumps(content)
        self.push(*[Reply(text, finish_reason=finish_reason, usage=usage)] * times)

    def invalid_json(self, text: str = 'Sure! Here it is: {"answer": oops,}') -> None:
        self.reply(text)

    def schema_mismatch(self, obj: Mapping[str, Any]) -> None:
        """Valid JSON that the caller's schema should refuse (same wire answer as `reply(obj)`)."""
        self.reply(obj)

    def truncated(self, partial_text: str) -> None:
        self.reply(partial_text, finish_reason="length")

    def status(
        self, code: int, *, retry_after: float | None = None, message: str | None = None, times: int = 1
    ) -> None:
        self.push(*[Status(code, retry_after, message or f"scripted HTTP {code}")] * times)

    def hang(self, seconds: float) -> None:
        self.push(Hang(seconds))

    def raw(self, body: bytes, *, code: int = 200, content_type: str = "application/json") -> None:
        self.push(Raw(body, code, content_type))

    # -- inspection ----------------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def pending(self) -> int:
        """Scripted behaviours not yet consumed."""
        with self._lock:
            return len(self._queue)

    # -- used by the handler -------------------------------------------------------------------

    def _record(
        self, method: str, path: str, headers: Mapping[str, str], raw: bytes, client_port: int
    ) -> RecordedRequest:
        auth = headers.get("authorization")
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = RecordedRequest(
            method=method,
            path=path,
            headers={k: v for k, v in headers.items() if k != "authorization"},
            auth_scheme=auth.split(" ", 1)[0] if auth else None,
            auth_matches=None if self._api_key is None else auth == f"Bearer {self._api_key}",
            body=body,
            client_port=client_port,
        )
        with self._lock:
            self._requests.append(request)
        return request

    def _next(self, request: RecordedRequest) -> Answer:
        with self._lock:
            behaviour = self._queue.popleft() if self._queue else self.default
        return behaviour(request) if callable(behaviour) else behaviour


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a Hang must not hold up stop()
    fake: FakeOpenAIServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as httpx's connection pool expects
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms delayed-ACK stall
    server: _Server
    timeout = 10  # an idle keep-alive connection's thread ends on its own

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read `requests`
        pass

    def _handle(self) -> None:
        fake = self.server.fake
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        request = fake._record(self.command, self.path, headers, raw, int(self.client_address[1]))
        route = (self.command, self.path.split("?", 1)[0].rstrip("/"))
        if route not in (("POST", "/v1/chat/completions"), ("GET", "/v1/models")):
            self._error(Status(404, message=f"no route {self.command} {self.path}"))
            return
        if request.auth_matches is False:
            self._error(Status(401, message="Incorrect API key provided"))
            return
        answer = fake._next(request)
        if isinstance(answer, Hang):
            fake._stopping_event.wait(answer.seconds)
            self.close_connection = True  # no answer at all
        elif isinstance(answer, Status):
            self._error(answer)
        elif isinstance(answer, Raw):
            self._send(answer.code, answer.body, answer.content_type)
        elif route[0] == "GET":
            self._json(200, model_list_payload([fake.model_id]))
        else:
            self._json(200, _completion(answer, request, fake.model_id))

    def _error(self, status: Status) -> None:
        extra = {} if status.retry_after is None else {"Retry-After": f"{status.retry_after:g}"}
        body = {"error": {"message": status.message, "type": "fake_error", "code": status.code}}
        self._json(status.code, body, extra)

    def _json(self, code: int, payload: Any, extra: Mapping[str, str] | None = None) -> None:
        self._send(code, json.dumps(payload).encode(), "application/json", extra)

    def _send(self, code: int, body: bytes, content_type: str, extra: Mapping[str, str] | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def _completion(reply: Reply, request: RecordedRequest, model_id: str) -> dict[str, Any]:
    body = request.body if isinstance(request.body, dict) else {}
    usage: Usage | None
    if reply.usage == "estimate":
        prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", []) if isinstance(m, dict))
        usage = Usage(prompt_tokens=prompt // 4 + 1, completion_tokens=len(reply.content) // 4 + 1)
    else:
        usage = None if reply.usage == "omit" else reply.usage
    return completion_payload(
        reply.content, model=body.get("model") or model_id, finish_reason=reply.finish_reason, usage=usage
    )
