"""An app's own relational data: its migrations run when a memory opens, in the same database."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import pytest

from forethought import Forethought, InvalidInput
from forethought.apps.base import App, KindSpec
from forethought.apps.generic import GenericApp
from forethought.domain import Session
from forethought.domain.candidates import Candidate
from forethought.embed.hashing import HashingEmbedder
from forethought.plugins import Registry, register_builtins
from forethought.store.types import AppMigration


class CatalogApp(App):
    name, title, subject_type = "catalog", "Catalog", "shop"
    kinds: ClassVar[Mapping[str, KindSpec]] = GenericApp.kinds
    migrations: ClassVar[tuple[AppMigration, ...]] = (
        AppMigration(1, "postings", "CREATE TABLE app_catalog_postings (id TEXT PRIMARY KEY, company TEXT NOT NULL)"),
        AppMigration(2, "roles", "ALTER TABLE app_catalog_postings ADD COLUMN role TEXT"),
    )

    def extract(self, session: Session) -> list[Candidate]:
        return []


@pytest.fixture
def with_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    custom = Registry()
    register_builtins(custom)
    custom.add_app(CatalogApp())
    monkeypatch.setattr("forethought.plugins._default", custom)


def test_an_apps_tables_are_migrated_when_a_memory_opens(tmp_path: Path, with_catalog: None) -> None:
    db = tmp_path / "shop.db"
    with Forethought.open(db, embedder=HashingEmbedder()) as memory:
        tables = memory.store.app_tables
        assert tables.version("catalog") == 2
        tables.execute("catalog", "INSERT INTO app_catalog_postings (id, company, role) VALUES (?, ?, ?)",
                       ("p1", "Contoso", "backend intern"))  # fmt: skip
        memory.retain(memory.scope("catalog", "corner-shop"), "A record beside the app's own rows.")
    with Forethought.open(db, embedder=HashingEmbedder()) as again:  # opening again migrates nothing twice
        assert again.store.app_tables.version("catalog") == 2
        rows = again.store.app_tables.query("catalog", "SELECT company, role FROM app_catalog_postings")
        assert rows == [{"company": "Contoso", "role": "backend intern"}]
        assert len(again.list_records(again.scope("catalog", "corner-shop"))) == 1
        with pytest.raises(InvalidInput):  # an app reaches only its own tables
            again.store.app_tables.query("catalog", "SELECT statement FROM records")


def test_apps_without_tables_leave_no_history(memory: Forethought) -> None:
    assert memory.store.app_tables.version("career") == 0
