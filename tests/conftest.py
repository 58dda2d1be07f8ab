"""Shared fixtures, and the guard that keeps the suite off the network."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from forethought import Forethought, Scope, SpaceKey
from forethought.embed.hashing import HashingEmbedder
from forethought.plugins import registry

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


@pytest.fixture
def memory(db_path: Path) -> Iterator[Forethought]:
    """A façade on a fresh file with the model-free hashing embedder (fast, deterministic)."""
    with Forethought.open(db_path, embedder=HashingEmbedder()) as m:
        yield m


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
