"""Shared fixtures, and the guard that keeps the suite off the network."""

from __future__ import annotations

import ipaddress
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from forethought import Forethought, Scope, SpaceKey
from forethought.embed.hashing import HashingEmbedder
from forethought.plugins import registry
from forethought.store.postgres import PostgresStore
from tests.hindsight_server import HindsightServer, HindsightUnavailable
from tests.pg_server import TEMPLATE, PostgresServer, PostgresUnavailable

_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: Any) -> Any:
    """Any connection to a host that is not this machine fails inside the test suite."""
    if self.family in (socket.AF_INET, socket.AF_INET6):
        host = address[0]
        try:
            allowed = ipaddress.ip_address(host).is_loopback
        except ValueError:
            allowed = host == "localhost"
        if not allowed:
            raise ConnectionRefusedError(f"the test suite may not connect to {host!r} (loopback only)")
    return _real_connect(self, address)


@pytest.fixture(autouse=True, scope="session")
def _network_guard() -> Iterator[None]:
    socket.socket.connect = _loopback_only  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = _real_connect  # type: ignore[method-assign]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def memory(request: pytest.FixtureRequest, db_path: Path) -> Iterator[Forethought]:
    """A façade with the model-free hashing embedder (fast, deterministic) on each store backend in
    turn: a fresh SQLite file, then a fresh PostgreSQL database. A test about the SQLite file
    itself asks for `sqlite_memory`."""
    target = db_path if request.param == "sqlite" else request.getfixturevalue("postgres_dsn")
    with Forethought.open(target, embedder=HashingEmbedder()) as m:
        yield m


@pytest.fixture
def sqlite_memory(db_path: Path) -> Iterator[Forethought]:
    """A façade on a fresh SQLite file (`db_path`) with the hashing embedder."""
    with Forethought.open(db_path, embedder=HashingEmbedder()) as m:
        yield m


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real, throwaway PostgreSQL server per test process (each xdist worker has its own),
    started only when a test asks for it (see tests/pg_server.py), with a template database already
    migrated, so that each test's database is a quick copy. A missing PostgreSQL or pgvector fails
    the test with the fix (`make postgres`), never skips it."""
    try:
        server = PostgresServer()
    except PostgresUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        template = server.create_database(TEMPLATE)
        PostgresStore(template).close()  # migrate once
        with psycopg.connect(template, autocommit=True) as conn:
            conn.execute("DELETE FROM meta")  # every copy makes its own space secret
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_dsn(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a fresh, migrated PostgreSQL database, dropped after the test."""
    dsn = postgres_server.create_database(template=TEMPLATE)
    try:
        yield dsn
    finally:
        postgres_server.drop_database(dsn)


@pytest.fixture(scope="session")
def hindsight_server(postgres_server: PostgresServer) -> Iterator[HindsightServer]:
    """One real Hindsight server per test process, on loopback and offline, in its own database of
    the test PostgreSQL server (see tests/hindsight_server.py). Not installed: the test fails with
    the fix (`make hindsight`), never skips."""
    dsn = postgres_server.create_database(f"hindsight_{uuid.uuid4().hex[:12]}")
    try:
        server = HindsightServer(dsn, HashingEmbedder())
    except HindsightUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def minilm() -> Any:
    from forethought.embed.onnx_minilm import MiniLMEmbedder

    return MiniLMEmbedder()


def scope_of(memory: Forethought, key: SpaceKey) -> Scope:
    """The Scope naming the subject `key` names: its workspace and subject id, under the installed
    app whose subject type it is (tests that fix a subject as a constant keep its SpaceKey)."""
    plugins = registry()
    app = next(name for name in plugins.names("app") if plugins.app(name).subject_type == key.subject_type)
    return memory.scope(app, key.subject_id, workspace=key.workspace)
