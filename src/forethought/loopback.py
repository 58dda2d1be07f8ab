"""A small HTTP server on 127.0.0.1, run in a daemon thread: the lifecycle every loopback endpoint
shares (the embeddings endpoint a remote engine embeds with, the fake LLM server tests talk to).

A subclass builds its `http.server` object (`_serve`, on the address to bind) and may release
what its handlers wait on before shutting down (`_stopping`). Port 0 takes any free port.
"""

from __future__ import annotations

import threading
from http.server import HTTPServer
from typing import Self

__all__ = ["LoopbackServer"]


class LoopbackServer:
    poll_interval_s = 0.1

    def __init__(self, *, port: int = 0) -> None:
        self._requested_port = port
        self._httpd: HTTPServer | None = None
        self._thread: threading.Thread | None = None

    def _serve(self, address: tuple[str, int]) -> HTTPServer:
        raise NotImplementedError

    def _stopping(self) -> None:
        """Called before shutdown (e.g. to wake a handler that is waiting)."""

    def start(self) -> Self:
        httpd = self._serve(("127.0.0.1", self._requested_port))
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": self.poll_interval_s}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._stopping()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError(f"{type(self).__name__} is not running")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"
