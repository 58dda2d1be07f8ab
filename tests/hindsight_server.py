"""A real Hindsight server for the tests, on loopback and offline.

`HindsightServer(dsn)` starts `hindsight-api` from the environment `make hindsight` installs
(.hindsight-venv, hindsight-api-slim pinned) against the PostgreSQL database `dsn`, on a free port
of 127.0.0.1, with no LLM (chunks-only retain), RRF instead of a reranker model, and embeddings from
Forethought's own embedder behind a loopback OpenAI-compatible endpoint (`EmbeddingServer`): no
PyTorch, nothing downloaded. It waits for /health, and `stop()` (also run at interpreter exit)
stops the server and the endpoint. A missing environment raises `HindsightUnavailable` naming the fix.
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import httpx

from forethought.embed.base import Embedder
from forethought.embed.server import EmbeddingServer
from tests.pg_server import free_port

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(os.environ.get("HINDSIGHT_VENV", ROOT / ".hindsight-venv"))
INSTALL_HINT = "run `make hindsight` to install the pinned Hindsight server into .hindsight-venv"
START_DEADLINE_S = 180.0  # a cold start migrates a new database first (~15 s here)


class HindsightUnavailable(RuntimeError):
    """The Hindsight environment is not installed, or the server did not start."""


class HindsightServer:
    def __init__(self, dsn: str, embedder: Embedder) -> None:
        binary = VENV / "bin" / "hindsight-api"
        if not binary.is_file():
            raise HindsightUnavailable(f"no {binary}: {INSTALL_HINT}")
        self.embeddings = EmbeddingServer(embedder).start()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="forethought-hindsight-"))
        self.log = self.root / "server.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HINDSIGHT_", "OPENAI_"))}
        env.update(
            {
                "HINDSIGHT_API_DATABASE_URL": dsn,
                "HINDSIGHT_API_HOST": "127.0.0.1",  # its default is 0.0.0.0
                "HINDSIGHT_API_PORT": str(self.port),
                "HINDSIGHT_API_WORKER_ID": "local-1",
                "HINDSIGHT_API_LLM_PROVIDER": "none",
                "HINDSIGHT_API_RERANKER_PROVIDER": "rrf",
                "HINDSIGHT_API_EMBEDDINGS_PROVIDER": "openai",
                "HINDSIGHT_API_EMBEDDINGS_OPENAI_BASE_URL": self.embeddings.base_url,
                "HINDSIGHT_API_EMBEDDINGS_OPENAI_API_KEY": "loopback",
                "HINDSIGHT_API_EMBEDDINGS_OPENAI_MODEL": embedder.name,
                "HF_HUB_OFFLINE": "1",
                "NO_PROXY": "127.0.0.1,localhost",
                "no_proxy": "127.0.0.1,localhost",
            }
        )
        self._log_file = self.log.open("w")
        self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
            [str(binary)], env=env, cwd=self.root, stdout=self._log_file, stderr=subprocess.STDOUT
        )
        atexit.register(self.stop)
        try:
            self.started_in_s = self._wait_for_health()
        except BaseException:
            self.stop()
            raise

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _wait_for_health(self) -> float:
        start = time.monotonic()
        while time.monotonic() - start < START_DEADLINE_S:
            assert self._process is not None
            if self._process.poll() is not None:
                raise HindsightUnavailable(f"hindsight-api exited ({self._process.returncode}): {self.tail()}")
            try:
                if httpx.get(f"{self.base_url}/health", timeout=2).status_code == 200:
                    return time.monotonic() - start
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise HindsightUnavailable(f"hindsight-api not healthy after {START_DEADLINE_S:.0f} s: {self.tail()}")

    def tail(self, lines: int = 12) -> str:
        text = self.log.read_text("utf-8", errors="replace") if self.log.exists() else ""
        return " | ".join(line for line in text.strip().splitlines()[-lines:] if line.strip())

    def stop(self) -> None:
        """Stops the server (SIGTERM, then SIGKILL) and the embeddings endpoint. Safe to call again."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if not self._log_file.closed:
            self._log_file.close()
        self.embeddings.stop()
        atexit.unregister(self.stop)

    def __enter__(self) -> HindsightServer:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
