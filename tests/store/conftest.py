"""The Store contract suite runs once per backend listed here; PostgreSQL runs on a real server
that the suite starts itself (`tests/pg_server.py`), a fresh database for every test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from forethought.store.base import Store
from forethought.store.postgres import PostgresStore
from forethought.store.sqlite import SQLiteStore

# name -> a factory given a fresh temporary folder and a way to get a fresh PostgreSQL database
BACKENDS: dict[str, Callable[[Path, Callable[[], str]], Store]] = {
    "sqlite-file": lambda tmp, _pg: SQLiteStore(tmp / "store.db"),
    "sqlite-memory": lambda tmp, _pg: SQLiteStore(":memory:"),
    "postgresql": lambda tmp, pg: PostgresStore(pg()),
}


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    backend = BACKENDS[request.param](tmp_path, lambda: str(request.getfixturevalue("postgres_dsn")))
    try:
        yield backend
    finally:
        backend.close()
