"""AppTables: an app's own relational data, in the store's database, under the app's own names."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from forethought.store.types import AppMigration

__all__ = ["AppTables"]


class AppTables(ABC):
    """Tables an app (career, support, project, or a plugin) owns beside the core's.

    An app is named by `[a-z][a-z0-9]{0,31}` (no underscore, so one app's prefix is never a prefix
    of another's) and owns exactly the tables and indexes named `app_<app>_*`. Its schema is a
    list of `AppMigration`s applied in the store's own migration history under the component
    `app:<app>`; its statements are plain SQL that SQLite and PostgreSQL share, with `?`
    placeholders, and values are always bound as parameters, never formatted into the SQL.

    A statement that names a table outside the app's prefix (a core table, another app's, the
    backend's catalogue), or attaches, pragmas or runs several statements at once, is refused
    with InvalidInput before anything runs (see `forethought.store.app_sql`); a backend may check
    more exactly (SQLite asks its authorizer about every table a statement touches).

    Every method raises InvalidInput for a bad app name or a refused statement, Conflict when a
    write breaks a constraint, `StoreBusy` when the write lock stays taken past the deadline and
    `BackendError` for anything else the backend reports (a syntax error included).
    """

    @abstractmethod
    def migrate(self, app: str, migrations: Sequence[AppMigration]) -> int:
        """Apply the migrations of `app` not applied yet, in order, each exactly once, under the
        same lock as the core's migrations (racing processes: one applies, the others find
        nothing left); returns the version reached. All pending steps commit together or not at all.

        Raises InvalidInput when the versions are not 1..n without gaps or a step touches a table
        outside the app's prefix, and BackendError when the database already holds a newer
        version of the app than `migrations` know (the app must be upgraded).
        """

    @abstractmethod
    def version(self, app: str) -> int:
        """The newest migration of `app` applied (0 when none)."""

    @abstractmethod
    def execute(self, app: str, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one writing statement (INSERT, UPDATE, DELETE) in its own transaction; returns the
        rows it changed. Schema changes belong in migrations and are refused here."""

    @abstractmethod
    def execute_many(self, app: str, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run one writing statement once per parameter row, all in one transaction (all rows or
        none); returns the rows changed."""

    @abstractmethod
    def query(self, app: str, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Run one reading statement (SELECT or WITH ... SELECT) and return its rows as dicts keyed
        by column name, in the order the statement gives. Writes are refused here."""
