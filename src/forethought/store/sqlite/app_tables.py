"""App tables on SQLite: an app's migrations in the core's history, its statements guarded twice.

Every statement first passes the portable lexical check (`forethought.store.app_sql`); then it
runs with an SQLite authorizer installed, which sees every table the statement reads or writes
(also through a subquery, a comma join or a view) and denies any outside the app's prefix, and
any action outside what the call is for (a query may only read; `execute` may not change the
schema; only migrations touch the catalogue, as schema changes do internally).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from typing import Any

from forethought.errors import InvalidInput
from forethought.store.app_sql import check_statement, checked_steps, component, table_prefix
from forethought.store.contracts import AppTables
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.driver import retrying, sqlite3
from forethought.store.sqlite.migrate import Migration, applied_version, apply_component
from forethought.store.types import AppMigration

__all__ = ["SQLiteAppTables"]


class _Use(Enum):
    """What a guarded statement is for, which bounds the actions the authorizer allows."""

    READ = "read"
    WRITE = "write"
    MIGRATE = "migrate"


_READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
_WRITE_ACTIONS = _READ_ACTIONS | {sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE}
_MIGRATE_ACTIONS = _WRITE_ACTIONS | {
    sqlite3.SQLITE_CREATE_TABLE,
    sqlite3.SQLITE_CREATE_INDEX,
    sqlite3.SQLITE_CREATE_VIEW,
    sqlite3.SQLITE_DROP_TABLE,
    sqlite3.SQLITE_DROP_INDEX,
    sqlite3.SQLITE_DROP_VIEW,
    sqlite3.SQLITE_ALTER_TABLE,
    sqlite3.SQLITE_REINDEX,
}
_ALLOWED = {_Use.READ: _READ_ACTIONS, _Use.WRITE: _WRITE_ACTIONS, _Use.MIGRATE: _MIGRATE_ACTIONS}
# Actions whose first argument is not a table (ALTER TABLE names the database first).
_NO_TABLE = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
# Schema changes read and write SQLite's catalogue themselves; an app's SQL may not name it
# (the lexical check refuses `sqlite_*`), so only those internal accesses reach it.
_CATALOGUE = {"sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_sequence"}
# The index SQLite makes itself for a UNIQUE or PRIMARY KEY constraint of table T is named
# sqlite_autoindex_T_<n>: it belongs to whoever owns T.
_AUTOINDEX = "sqlite_autoindex_"


class SQLiteAppTables(AppTables):
    def __init__(self, db: Database) -> None:
        self._db = db

    def migrate(self, app: str, migrations: Sequence[AppMigration]) -> int:
        name = component(app)
        steps = checked_steps(app, migrations)  # a bad step is refused before anything runs
        conn = self._db.conn()

        def execute(statement: str) -> None:
            self._run(conn, app, _Use.MIGRATE, lambda: conn.execute(statement))

        def attempt() -> int:
            return apply_component(
                conn,
                name,
                [Migration(m.version, m.name, m.sql) for m in steps],
                execute,
                upgrade=f"upgrade the {app} app",
                owner=f"the {app} app",
            )

        return retrying(attempt, counter=self._db.count_retry)

    def version(self, app: str) -> int:
        name = component(app)
        return self._db.read(lambda c: applied_version(c, name))

    def execute(self, app: str, sql: str, params: Sequence[Any] = ()) -> int:
        statement = check_statement(app, sql)
        count: int = self._db.write(
            lambda c: self._run(c, app, _Use.WRITE, lambda: c.execute(statement, tuple(params))).rowcount
        )
        return count

    def execute_many(self, app: str, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        statement = check_statement(app, sql)
        values = [tuple(row) for row in rows]
        count: int = self._db.write(
            lambda c: self._run(c, app, _Use.WRITE, lambda: c.executemany(statement, values)).rowcount
        )
        return count

    def query(self, app: str, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        statement = check_statement(app, sql)

        def read(conn: Any) -> list[dict[str, Any]]:
            cur = self._run(conn, app, _Use.READ, lambda: conn.execute(statement, tuple(params)))
            columns = [d[0] for d in cur.description or ()]
            return [dict(zip(columns, row, strict=True)) for row in cur.fetchall()]

        return self._db.read(read)

    def _run(self, conn: Any, app: str, use: _Use, run: Callable[[], Any]) -> Any:
        """`run()` with the authorizer installed; a denied statement is the caller's InvalidInput."""
        with _guarded(conn, table_prefix(app), use) as denied:
            try:
                return run()
            except sqlite3.DatabaseError as exc:
                if not denied:
                    raise
                raise InvalidInput(
                    f"app {app!r} may only {use.value} tables named {table_prefix(app)}* here ({denied[0]})"
                ) from exc


@contextmanager
def _guarded(conn: Any, prefix: str, use: _Use) -> Iterator[list[str]]:
    """Install the authorizer for the block; yields the list of what it denied (empty if nothing)."""
    allowed = _ALLOWED[use]
    denied: list[str] = []
    # An in-memory store shares one connection between threads: judge only this thread's statements.
    owner = threading.get_ident()

    def authorize(action: int, arg1: str | None, arg2: str | None, _db: str | None, _trigger: str | None) -> int:
        if threading.get_ident() != owner:
            return int(sqlite3.SQLITE_OK)
        if action not in allowed:
            denied.append(f"action {action} on {arg1}")
            return int(sqlite3.SQLITE_DENY)
        if action in _NO_TABLE:
            return int(sqlite3.SQLITE_OK)
        names = [arg2] if action == sqlite3.SQLITE_ALTER_TABLE else [arg1]
        if action in (sqlite3.SQLITE_CREATE_INDEX, sqlite3.SQLITE_DROP_INDEX):
            names.append(arg2)  # the index and its table
        for table in names:
            if table is None or table.lower().removeprefix(_AUTOINDEX).startswith(prefix):
                continue
            if use is _Use.MIGRATE and table.lower() in _CATALOGUE:
                continue
            denied.append(f"table {table}")
            return int(sqlite3.SQLITE_DENY)
        return int(sqlite3.SQLITE_OK)

    conn.set_authorizer(authorize)
    try:
        yield denied
    finally:
        conn.set_authorizer(None)
