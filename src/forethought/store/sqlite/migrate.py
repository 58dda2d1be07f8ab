"""Versioned migrations: numbered steps applied in order, each exactly once, under the write lock.

The core's steps are the numbered .sql files beside this module; an app's are the
`AppMigration`s it declares (see `app_tables.py`). Both go through `apply_component` and share
one history, `schema_migrations`, keyed by (component, version) since core migration 6 (the
core's component is `core`; before migration 6 every row is the core's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from forethought.domain.times import format_time, utcnow
from forethought.store.migrations import CORE, Migration, apply_steps, read_migrations

__all__ = ["CORE", "Migration", "applied_version", "apply_component", "apply_migrations", "available_migrations"]


def available_migrations() -> list[Migration]:
    return read_migrations(resources.files("forethought.store.sqlite") / "migrations")


def apply_migrations(conn: Any) -> int:
    """Bring the core schema up to date; returns the version reached."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    return apply_component(
        conn, CORE, available_migrations(), conn.execute, upgrade="upgrade Forethought", owner="this Forethought"
    )


def apply_component(
    conn: Any,
    component: str,
    migrations: Sequence[Migration],
    execute: Callable[[str], Any],
    *,
    upgrade: str,
    owner: str,
) -> int:
    """Apply the steps of `component` not in the history yet, running each statement through
    `execute`; returns the version reached. Safe to race: BEGIN IMMEDIATE makes one process
    migrate while the others wait, then find nothing left to do. All pending steps commit
    together or not at all."""

    def record(migration: Migration) -> None:
        if _keyed(conn):
            conn.execute(
                "INSERT INTO schema_migrations (component, version, name, applied_at) VALUES (?, ?, ?, ?)",
                (component, migration.version, migration.name, format_time(utcnow())),
            )
        else:
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, format_time(utcnow())),
            )

    conn.execute("BEGIN IMMEDIATE")
    try:
        done = _applied(conn, component)
        newest_known = apply_steps(component, migrations, done, execute, record, upgrade=upgrade, owner=owner)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return newest_known


def applied_version(conn: Any, component: str) -> int:
    """The newest step of `component` in the history (0 when none)."""
    done = _applied(conn, component)
    return max(done) if done else 0


def _keyed(conn: Any) -> bool:
    """Whether the history has its component column yet (core migration 6 adds it)."""
    return any(row[1] == "component" for row in conn.execute("PRAGMA table_info(schema_migrations)"))


def _applied(conn: Any, component: str) -> set[int]:
    if _keyed(conn):
        rows = conn.execute("SELECT version FROM schema_migrations WHERE component = ?", (component,))
    elif component == CORE:
        rows = conn.execute("SELECT version FROM schema_migrations")
    else:
        return set()
    return {row[0] for row in rows}
