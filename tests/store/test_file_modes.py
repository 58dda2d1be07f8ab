"""Every file the store writes is owner-only, whatever the umask of the process that writes it."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forethought import Forethought, RetainItem
from forethought.embed.hashing import HashingEmbedder
from forethought.store.base import RecordFilter
from forethought.store.sqlite import SQLiteStore
from forethought.store.sqlite.files import create_private, write_private


@pytest.fixture
def loose_umask() -> Iterator[None]:
    """The most permissive umask: any mode not set explicitly would show up as world-readable."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _written(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def test_the_database_its_sidecars_and_its_vector_snapshots_are_owner_only(tmp_path: Path, loose_umask: None) -> None:
    path = tmp_path / "memory.db"
    memory = Forethought(SQLiteStore(path, hnsw_threshold=50), HashingEmbedder())
    scope = memory.scope("generic", "big")
    memory.retain_many(scope, [RetainItem(f"Fact {i}: the billing service owns queue {i}.") for i in range(120)])
    sid = memory.space(scope).id
    memory.store.search.vector(sid, HashingEmbedder().embed_one("billing"), RecordFilter(), 5)
    files = _written(tmp_path)
    names = {p.name for p in files}
    assert {"memory.db", "memory.db-wal", "memory.db-shm", f"{sid}.usearch", f"{sid}.json"} <= names, names
    assert {p.name: oct(_mode(p)) for p in files} == {p.name: "0o600" for p in files}
    assert _mode(tmp_path / "memory.db.vectors") == 0o700
    memory.close()


def test_an_existing_sidecar_made_readable_is_made_owner_only_on_open(tmp_path: Path, loose_umask: None) -> None:
    path = tmp_path / "memory.db"
    Forethought(SQLiteStore(path), HashingEmbedder()).close()
    wal = path.with_name("memory.db-wal")
    wal.touch()
    os.chmod(wal, 0o644)
    memory = Forethought(SQLiteStore(path), HashingEmbedder())
    assert _mode(wal) == 0o600
    memory.close()


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=0o777), st.binary(max_size=64))
def test_private_files_are_owner_only_under_any_umask(
    tmp_path_factory: pytest.TempPathFactory, umask: int, data: bytes
) -> None:
    folder = tmp_path_factory.mktemp("modes")
    old = os.umask(umask)
    try:
        create_private(folder / "new.db")
        write_private(folder / "meta.json", data)
    finally:
        os.umask(old)
    assert _mode(folder / "new.db") == 0o600 and _mode(folder / "meta.json") == 0o600
    assert (folder / "meta.json").read_bytes() == data
