"""LocalHindsight: a real Hindsight server started on this machine, on loopback and offline.

    # env: the environment the server inherits, from the entry point (a test, a benchmark)
    server = LocalHindsight(dsn, embedder, venv=Path(".hindsight-venv"), parent_env=env)
    api = HttpHindsight(server.base_url, bank="forethought")
    ...
    server.stop()

It runs `hindsight-api` from the environment `make hindsight` installs (hindsight-api-slim,
pinned) against the PostgreSQL database `dsn`, on a free port of 127.0.0.1, with no LLM
(chunks-only retain), RRF instead of a reranker model, and embeddings from Forethought's own
embedder behind a loopback OpenAI-compatible endpoint (`EmbeddingServer`, served from this
process): no PyTorch, nothing downloaded. It waits for /health; `stop()` (also run at interpreter
exit) stops the server and the endpoint.

The library reads no environment: the caller passes the one the child inherits (`parent_env`,
usually the entry point's own process environment); every `HINDSIGHT_*` and `OPENAI_*` variable in it is
dropped, so only the settings named here configure the server. A missing environment, or a server
that exits or never gets healthy, raises `HindsightUnavailable` naming the fix.
"""

from __future__ import annotations

import atexit
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

import httpx

from forethought.embed.base import Embedder
from forethought.embed.server import EmbeddingServer
from forethought.engines.hindsight.base import HindsightUnavailable

__all__ = ["INSTALL_HINT", "START_DEADLINE_S", "LocalHindsight", "free_port", "server_env"]

INSTALL_HINT = "run `make hindsight` to install the pinned Hindsight server into .hindsight-venv"
START_DEADLINE_S = 180.0  # a cold start migrates a new database first (~15 s here)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_env(
    parent_env: Mapping[str, str], *, dsn: str, port: int, embeddings_url: str, model: str
) -> dict[str, str]:
    """The child's environment: the parent's without its Hindsight and OpenAI settings, plus ours."""
    env = {k: v for k, v in parent_env.items() if not k.startswith(("HINDSIGHT_", "OPENAI_"))}
    env.update(
        {
            "HINDSIGHT_API_DATABASE_URL": dsn,
            "HINDSIGHT_API_HOST": "127.0.0.1",  # its default is 0.0.0.0
            "HINDSIGHT_API_PORT": str(port),
            "HINDSIGHT_API_WORKER_ID": "local-1",
            "HINDSIGHT_API_LLM_PROVIDER": "none",
            "HINDSIGHT_API_RERANKER_PROVIDER": "rrf",
            "HINDSIGHT_API_EMBEDDINGS_PROVIDER": "openai",
            "HINDSIGHT_API_EMBEDDINGS_OPENAI_BASE_URL": embeddings_url,
            "HINDSIGHT_API_EMBEDDINGS_OPENAI_API_KEY": "loopback",
            "HINDSIGHT_API_EMBEDDINGS_OPENAI_MODEL": model,
            "HF_HUB_OFFLINE": "1",
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
        }
    )
    return env


class LocalHindsight:
    """One running `hindsight-api` (started on construction) and the embeddings endpoint it uses."""

    def __init__(
        self,
        dsn: str,
        embedder: Embedder,
        *,
        venv: Path,
        parent_env: Mapping[str, str],
        start_deadline_s: float = START_DEADLINE_S,
    ) -> None:
        binary = venv / "bin" / "hindsight-api"
        if not binary.is_file():
            raise HindsightUnavailable(f"no {binary}: {INSTALL_HINT}")
        self.start_deadline_s = start_deadline_s
        self.embeddings = EmbeddingServer(embedder).start()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="forethought-hindsight-"))
        self.log = self.root / "server.log"
        env = server_env(
            parent_env, dsn=dsn, port=self.port, embeddings_url=self.embeddings.base_url, model=embedder.name
        )
        self._log_file = self.log.open("w")
        self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
            [str(binary)], env=env, cwd=self.root, stdout=self._log_file, stderr=subprocess.STDOUT
        )
        self.pid = self._process.pid
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
        while time.monotonic() - start < self.start_deadline_s:
            assert self._process is not None
            if self._process.poll() is not None:
                raise HindsightUnavailable(f"hindsight-api exited ({self._process.returncode}): {self.tail()}")
            try:
                if httpx.get(f"{self.base_url}/health", timeout=2).status_code == 200:
                    return time.monotonic() - start
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise HindsightUnavailable(f"hindsight-api not healthy after {self.start_deadline_s:.0f} s: {self.tail()}")

    def tail(self, lines: int = 12) -> str:
        """The last lines of the server's log, on one line."""
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

    def __enter__(self) -> LocalHindsight:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
