"""Fixtures for the MCP server tests: a seeded database with two workspaces, the server spawned
through the installed `forethought` entry point (stdio or streamable HTTP on a free loopback
port), and the official MCP client to talk to it."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from forethought import Forethought
from forethought.domain import CheckPatterns
from tests.reliability.server import FORETHOUGHT, free_port, server_env

TOOL_NAMES = {
    "forethought_brief",
    "forethought_check",
    "forethought_submit_session",
    "forethought_ask",
    "forethought_rulebook",
    "forethought_recall",
}
CANARY = "CANARY-7f3a: the alpha billing vault rotates every Monday."
T = TypeVar("T")


@dataclass(frozen=True)
class Seed:
    db: Path
    key_a: str  # workspace "alpha": holds apexcart's rules and the canary
    key_b: str  # workspace "beta": its own apexcart, without the canary
    moment_handle: str  # alpha's decision that forbids moment.js
    canary_ids: tuple[str, str]  # alpha's canary record: id and handle


def seed(db: Path) -> Seed:
    with Forethought.open(db, embedder="hashing") as memory:
        alpha = memory.scope("project", "apexcart", workspace="alpha")
        beta = memory.scope("project", "apexcart", workspace="beta")
        moment = memory.retain(
            alpha,
            "Never use moment.js; use date-fns for date formatting.",
            kind="decision",
            attributes={"area": "frontend"},
            check=CheckPatterns(forbid=(r"\bmoment\b",)),
        ).record
        memory.retain(
            alpha,
            "Refresh tokens live in httpOnly cookies, never in localStorage.",
            kind="security_constraint",
            attributes={"area": "auth"},
        )
        canary = memory.retain(
            alpha, CANARY, kind="convention", attributes={"area": "payments"}, tags=("billing",)
        ).record
        memory.retain(beta, "Beta deploys the storefront with blue-green releases.", kind="deployment")
        _, key_a = memory.create_api_key("alpha", name="agent-a")
        _, key_b = memory.create_api_key("beta", name="agent-b")
    return Seed(db=db, key_a=key_a, key_b=key_b, moment_handle=moment.handle, canary_ids=(canary.id, canary.handle))


def stdio_client(db: Path, *args: str, **env: str) -> Client:
    params = StdioServerParameters(
        command=FORETHOUGHT, args=["mcp", "--transport", "stdio", *args], env=server_env(db, **env), cwd=db.parent
    )
    return Client(params, read_timeout_seconds=30)


def run(fn: Callable[[], Awaitable[T]], *, timeout: float = 60) -> T:
    async def bounded() -> T:
        with anyio.fail_after(timeout):
            return await fn()

    return anyio.run(bounded)


def text(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


@dataclass(frozen=True)
class HttpServer:
    url: str
    seed: Seed

    def client(self, key: str | None) -> AbstractAsyncContextManager[Client]:
        return _http_client(self.url, key)


class _http_client:
    """The official client over streamable HTTP, with the key header (or none)."""

    def __init__(self, url: str, key: str | None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx2.AsyncClient(headers=headers, timeout=30)
        self.client = Client(streamable_http_client(url, http_client=self.http), read_timeout_seconds=30)

    async def __aenter__(self) -> Client:
        await self.http.__aenter__()
        try:
            return await self.client.__aenter__()
        except BaseException:
            await self.http.__aexit__(None, None, None)
            raise

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self.client.__aexit__(*exc)
        finally:
            await self.http.__aexit__(None, None, None)


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    folder = tmp_path_factory.mktemp("mcp-http")
    seeded = seed(folder / "memory.db")
    port = free_port()
    process = subprocess.Popen(
        [FORETHOUGHT, "mcp", "--transport", "http", "--port", str(port)],
        env=server_env(seeded.db),
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited: {process.stderr.read().decode() if process.stderr else ''}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield HttpServer(url=f"http://127.0.0.1:{port}/mcp", seed=seeded)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
