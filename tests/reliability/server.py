"""A real `forethought serve` process on a free loopback port, for the reliability tests (and
`bench/load.py`, which times its readiness).

The process is started through the installed entry point with a minimal environment (no provider
keys or config files leak in from the developer's shell), its output goes to a log file beside the
database (a pipe nobody reads could fill and stall the server), and `start` returns only once
`/ready` answers 200. Always stop it: `ServerProcess` is a context manager.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import httpx

__all__ = ["FORETHOUGHT", "ServerProcess", "free_port", "server_env"]

FORETHOUGHT = str(Path(sys.executable).with_name("forethought"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(db: Path, **extra: str) -> dict[str, str]:
    """The hashing embedder (no model to load), no language model, no rate limit."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "FORETHOUGHT_DB": str(db),
        "FORETHOUGHT_EMBEDDER": "hashing",
        "FORETHOUGHT_LLM_PROVIDER": "none",
        "FORETHOUGHT_SERVER_RATE": "0",
    }
    if "PYTHONPATH" in os.environ:  # e.g. a checkout tested against another tree's virtualenv
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    env.update(extra)
    return env


class ServerProcess:
    """`forethought serve` over `db`; `start()` waits for readiness, `kill()` is a SIGKILL."""

    def __init__(self, db: Path, *, port: int | None = None, args: tuple[str, ...] = (), **env: str) -> None:
        self.db = db
        self.port = port or free_port()
        self.args = args
        self.env = server_env(db, **env)
        self.log = db.with_name(f"{db.name}.server-{self.port}.log")
        self.process: subprocess.Popen[bytes] | None = None
        self.ready_s = 0.0  # seconds from process start until `/ready` answered 200

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, timeout_s: float = 60) -> ServerProcess:
        started = time.perf_counter()
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [FORETHOUGHT, "serve", "--port", str(self.port), *self.args],
                env=self.env,
                cwd=self.db.parent,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.wait_ready(timeout_s)
        self.ready_s = time.perf_counter() - started
        return self

    def wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        with httpx.Client(timeout=2) as client:
            while True:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited ({self.process.returncode}):\n{self.output()}")
                try:
                    if client.get(f"{self.url}/ready").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the server was not ready within {timeout_s} s:\n{self.output()}")
                time.sleep(0.01)  # fine enough for bench/load.py to time readiness with it

    def workers(self) -> list[int]:
        """The live worker processes of `serve --workers N` (children of this one, from /proc:
        Linux; a killed one its supervisor has not reaped yet is dead), not the resource tracker
        multiprocessing may start beside them."""
        assert self.process is not None
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                    command = Path(f"/proc/{entry}/cmdline").read_bytes()
                except OSError:
                    continue  # gone meanwhile
                state, parent = stat.rsplit(")", 1)[1].split()[:2]
                if state in ("Z", "X"):
                    continue  # dead, not yet reaped by the supervisor
                if int(parent) == self.process.pid and b"resource_tracker" not in command:
                    found.append(int(entry))
        return sorted(found)

    def output(self) -> str:
        return self.log.read_text("utf-8", errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown handler, no final commit, no checkpoint."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start() if self.process is None else self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
