"""The core's migrations on PostgreSQL: the numbered .sql files beside this module, in the same
history table, components and version sequence as on SQLite (`schema_migrations`), applied under
a transaction-scoped advisory lock so that racing processes migrate once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from forethought.domain.times import format_time, utcnow
from forethought.store.migrations import CORE, Migration, apply_steps, read_migrations

__all__ = ["CORE", "applied_version", "apply_component", "apply_migrations", "available_migrations"]

# pg_advisory_xact_lock's key for every schema change of this store (any fixed 64-bit number).
_MIGRATION_LOCK = 0x466F726574686F75


def available_migrations() -> list[Migration]:
    return read_migrations(resources.files("forethought.store.postgres") / "migrations")


def apply_migrations(conn: Any) -> int:
    """Bring the core schema up to date on `conn` (a Statements); returns the version reached."""
    return apply_component(
        conn,
        CORE,
        available_migrations(),
        conn.execute,
        upgrade="upgrade Forethought",
        owner="this Forethought",
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
    """Apply the steps of `component` not in the history yet inside the caller's transaction,
    each statement through `execute`; returns the version reached."""
    conn.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (component TEXT NOT NULL DEFAULT 'core',"
        " version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (component, version))"
    )

    def record(migration: Migration) -> None:
        conn.execute(
            "INSERT INTO schema_migrations (component, version, name, applied_at) VALUES (?, ?, ?, ?)",
            (component, migration.version, migration.name, format_time(utcnow())),
        )

    return apply_steps(component, migrations, _applied(conn, component), execute, record, upgrade=upgrade, owner=owner)


def applied_version(conn: Any, component: str) -> int:
    done = _applied(conn, component)
    return max(done) if done else 0


def _applied(conn: Any, component: str) -> set[int]:
    found = conn.execute("SELECT to_regclass('schema_migrations')").fetchone()
    if found is None or found[0] is None:
        return set()
    return {row[0] for row in conn.execute("SELECT version FROM schema_migrations WHERE component = ?", (component,))}
