"""Conventions that are easy to break by accident, pinned as tests."""

from __future__ import annotations

import ast
from pathlib import Path

import forethought
from forethought.store.sqlite import SQLiteStore
from forethought.store.sqlite.migrate import available_migrations

PACKAGE = Path(forethought.__file__).parent

PUBLIC_API = [
    "PRESETS",
    "AuditEvent",
    "BackendError",
    "Conflict",
    "Evidence",
    "Forethought",
    "ForethoughtError",
    "History",
    "IntegrityError",
    "InvalidInput",
    "InvalidTransition",
    "ModelUnavailable",
    "NotFound",
    "Provenance",
    "RecallConfig",
    "RecallHit",
    "RecallResult",
    "Record",
    "RetainItem",
    "Retained",
    "Role",
    "Scope",
    "Session",
    "SignalScore",
    "Space",
    "SpaceKey",
    "Status",
    "StoreBusy",
    "Turn",
    "__version__",
]


def test_public_api_is_pinned() -> None:
    assert sorted(forethought.__all__) == sorted(PUBLIC_API)
    for name in forethought.__all__:
        assert hasattr(forethought, name), name


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def test_the_domain_depends_on_nothing_else_in_the_package() -> None:
    for path in _modules("domain"):
        for module in _imports(path):
            if module.startswith("forethought."):
                assert module.startswith(("forethought.domain", "forethought.errors")), f"{path.name}: {module}"


def test_front_ends_never_touch_a_store_backend() -> None:
    for path in _modules("cli"):
        for module in _imports(path):
            assert not module.startswith("forethought.store"), f"{path.name} imports {module}"


def test_recall_uses_only_the_store_seam() -> None:
    for path in _modules("recall"):
        for module in _imports(path):
            assert not module.startswith("forethought.store.sqlite"), f"{path.name} imports {module}"


def test_nothing_reads_the_environment_at_import_time_in_the_library() -> None:
    for path in PACKAGE.rglob("*.py"):
        if "cli" in path.parts:
            continue  # the CLI is an entry point: configuration lives there
        assert "os.environ" not in path.read_text("utf-8"), f"{path} reads the environment"


def test_migrations_are_numbered_and_all_apply_to_a_fresh_database(tmp_path: Path) -> None:
    migrations = available_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    store = SQLiteStore(tmp_path / "m.db")
    try:
        with store.raw() as conn:
            applied = [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
            assert applied == [m.version for m in migrations]
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        store.close()
    # opening again applies nothing twice
    SQLiteStore(tmp_path / "m.db").close()


def test_a_newer_schema_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    import pytest

    from forethought import BackendError

    store = SQLiteStore(tmp_path / "n.db")
    with store.raw() as conn:
        conn.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 'now')")
    store.close()
    with pytest.raises(BackendError, match="newer than this Forethought"):
        SQLiteStore(tmp_path / "n.db")
