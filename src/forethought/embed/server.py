"""EmbeddingServer: any Embedder served on loopback over the OpenAI embeddings protocol.

A remote recall engine that embeds with an OpenAI-compatible provider (Hindsight's
`HINDSIGHT_API_EMBEDDINGS_PROVIDER=openai`) can then embed with Forethought's own model: the same
vectors as the store's, no PyTorch in that engine's environment and nothing downloaded.

    with EmbeddingServer(MiniLMEmbedder()) as server:
        base_url = server.base_url          # http://127.0.0.1:<port>/v1

Routes: POST /v1/embeddings (`input` a string or a list of strings; `encoding_format` "float" or
"base64", the OpenAI SDK's default: little-endian float32) and GET /v1/models. The server binds
127.0.0.1 only and keeps nothing: it logs no text and records no request.
"""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from forethought.embed.base import Embedder
from forethought.errors import ForethoughtError
from forethought.loopback import LoopbackServer

__all__ = ["MAX_INPUTS", "EmbeddingServer", "embeddings_payload"]

MAX_INPUTS = 2048  # OpenAI's own cap on the inputs of one request
MAX_BODY = 16 * 1024 * 1024


def embeddings_payload(embedder: Embedder, body: Any) -> dict[str, Any]:
    """The OpenAI answer to one /v1/embeddings request body; ValueError for a malformed one."""
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object")
    raw = body.get("input")
    texts = [raw] if isinstance(raw, str) else raw
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ValueError("input must be a string or a list of strings")
    if not texts or len(texts) > MAX_INPUTS:
        raise ValueError(f"input must hold 1 to {MAX_INPUTS} texts")
    encoding = body.get("encoding_format") or "float"
    if encoding not in ("float", "base64"):
        raise ValueError("encoding_format must be 'float' or 'base64'")
    vectors = embedder.embed(texts)
    data = [
        {
            "object": "embedding",
            "index": i,
            "embedding": base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode("ascii")
            if encoding == "base64"
            else [float(x) for x in v],
        }
        for i, v in enumerate(vectors)
    ]
    tokens = sum(max(1, len(t.split())) for t in texts)
    return {
        "object": "list",
        "data": data,
        "model": embedder.name,
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    embedder: Embedder
    lock: threading.Lock  # embedders are not promised to be thread-safe


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: a request line is harmless, but nothing here needs a log."""

    def _send(self, code: int, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _error(self, code: int, message: str) -> None:
        self._send(code, {"error": {"message": message, "type": "invalid_request_error", "code": None}})

    def do_GET(self) -> None:
        if self.path.rstrip("/") != "/v1/models":
            self._error(404, "not found")
            return
        model = {"id": self.server.embedder.name, "object": "model", "owned_by": "forethought"}
        self._send(200, {"object": "list", "data": [model]})

    def do_POST(self) -> None:
        if self.path.rstrip("/") != "/v1/embeddings":
            self._error(404, "not found")
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._error(413, "body too large")
            return
        try:
            body = json.loads(self.rfile.read(length) or b"null")
            with self.server.lock:
                payload = embeddings_payload(self.server.embedder, body)
        except ValueError as exc:
            self._error(400, str(exc))
            return
        except ForethoughtError as exc:
            self._error(503, f"the embedder failed: {type(exc).__name__}")
            return
        self._send(200, payload)


class EmbeddingServer(LoopbackServer):
    """A running embeddings endpoint on 127.0.0.1 (port 0: any free port) for one embedder."""

    def __init__(self, embedder: Embedder, *, port: int = 0) -> None:
        super().__init__(port=port)
        self.embedder = embedder

    def _serve(self, address: tuple[str, int]) -> _Server:
        httpd = _Server(address, _Handler)
        httpd.embedder = self.embedder
        httpd.lock = threading.Lock()
        return httpd
