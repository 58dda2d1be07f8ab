"""Versioned migrations: numbered .sql files applied in order, each exactly once, under a lock."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any, NamedTuple

from forethought.domain.times import format_time, utcnow
from forethought.errors import BackendError

__all__ = ["Migration", "apply_migrations", "available_migrations"]

_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


class Migration(NamedTuple):
    version: int
    name: str
    sql: str


def available_migrations() -> list[Migration]:
    folder = resources.files("forethought.store.sqlite") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = _NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    found.sort()
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise BackendError(f"migration files are not numbered 1..n without gaps: {versions}")
    return found


def apply_migrations(conn: Any) -> int:
    """Bring the schema up to date; returns the version reached. Safe to race: BEGIN IMMEDIATE
    makes one process migrate while the others wait, then find nothing left to do."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    migrations = available_migrations()
    conn.execute("BEGIN IMMEDIATE")
    try:
        done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        newest_known = migrations[-1].version if migrations else 0
        if done and max(done) > newest_known:
            raise BackendError(
                f"this database has schema version {max(done)}, newer than this Forethought "
                f"understands ({newest_known}); upgrade Forethought"
            )
        for migration in migrations:
            if migration.version in done:
                continue
            for statement in _split(migration.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, format_time(utcnow())),
            )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return migrations[-1].version if migrations else 0


def _split(sql: str) -> list[str]:
    """Statements of a migration file (no statement in our files contains a ';' in a string)."""
    lines = [line for line in sql.splitlines() if not line.lstrip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]
