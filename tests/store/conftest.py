"""The Store contract suite runs once per backend listed here: adding one (PostgreSQL) is one line."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from forethought.store.base import Store
from forethought.store.sqlite import SQLiteStore

# name -> a factory given a fresh temporary folder
BACKENDS: dict[str, Callable[[Path], Store]] = {
    "sqlite-file": lambda tmp: SQLiteStore(tmp / "store.db"),
    "sqlite-memory": lambda tmp: SQLiteStore(":memory:"),
}


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    backend = BACKENDS[request.param](tmp_path)
    try:
        yield backend
    finally:
        backend.close()
