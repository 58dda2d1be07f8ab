"""The portable check on an app's SQL: the app's name, its table prefix, and which statements pass.

It is deliberately simple, a lexical check every backend can run before its own: string literals
and comments are blanked out, then

- one statement only (a `;` may only end it);
- no `ATTACH`, `DETACH`, `PRAGMA`, `VACUUM`, triggers or virtual tables, and no name of the
  backend's catalogue (`sqlite_*`, `pg_*`, `information_schema`);
- every name that follows `TABLE`, `INDEX`, `VIEW`, `INTO`, `UPDATE`, `FROM`, `JOIN`,
  `REFERENCES`, `RENAME TO` (and the table after `INDEX ... ON`) starts with `app_<app>_`.

A common table expression is named like a table (`WITH app_<app>_recent AS ...`), since the
check cannot tell the two apart. It can miss a table named after a comma in a `FROM` list or
quoted with brackets; the SQLite backend closes that gap with its authorizer, which sees every
table a statement reads or writes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from forethought.errors import InvalidInput
from forethought.store.types import AppMigration

__all__ = ["check_app_name", "check_statement", "checked_steps", "component", "split_statements", "table_prefix"]

_APP_NAME = re.compile(r"[a-z][a-z0-9]{0,31}")
_LITERAL = re.compile(r"'(?:[^']|'')*'|--[^\n]*|/\*.*?\*/", re.DOTALL)
_FORBIDDEN = re.compile(
    r"\b(ATTACH|DETACH|PRAGMA|VACUUM|TRIGGER|VIRTUAL|sqlite_\w*|pg_\w*|information_schema)\b", re.IGNORECASE
)
_IF_EXISTS = r"(?:IF\s+(?:NOT\s+)?EXISTS\s+)?"
_NAME = r"(\"[^\"]+\"|[A-Za-z_][\w.]*)"
_NAMED = re.compile(
    rf"\b(?:TABLE|INDEX|VIEW|INTO|UPDATE|FROM|JOIN|REFERENCES|RENAME\s+TO)\s+{_IF_EXISTS}{_NAME}", re.IGNORECASE
)
_INDEX_ON = re.compile(rf"\bINDEX\s+{_IF_EXISTS}{_NAME}\s+ON\s+{_NAME}", re.IGNORECASE)


def check_app_name(app: str) -> str:
    """`app` itself when it is a valid app name, else InvalidInput."""
    if not _APP_NAME.fullmatch(app):
        raise InvalidInput(f"app name {app!r} must be 1-32 lowercase letters and digits, starting with a letter")
    return app


def table_prefix(app: str) -> str:
    """The prefix of every table and index `app` owns."""
    return f"app_{check_app_name(app)}_"


def component(app: str) -> str:
    """The app's key in the migration history (the core's is `core`)."""
    return f"app:{check_app_name(app)}"


def split_statements(sql: str) -> list[str]:
    """The statements of a migration (no `;` inside a string literal)."""
    lines = [line for line in sql.splitlines() if not line.lstrip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]


def checked_steps(app: str, migrations: Sequence[AppMigration]) -> list[AppMigration]:
    """`migrations` in version order, once they are numbered 1..n without gaps and every statement
    passes `check_statement`; InvalidInput before anything runs otherwise."""
    steps = sorted(migrations, key=lambda m: m.version)
    versions = [m.version for m in steps]
    if versions != list(range(1, len(steps) + 1)):
        raise InvalidInput(f"the migrations of app {app!r} are not numbered 1..n without gaps: {versions}")
    for step in steps:
        for statement in split_statements(step.sql):
            check_statement(app, statement)
    return steps


def check_statement(app: str, sql: str) -> str:
    """The statement without a trailing `;`, when it passes the check above; else InvalidInput."""
    prefix = table_prefix(app).lower()
    bare = _LITERAL.sub("''", sql).strip()
    if bare.endswith(";"):
        bare = bare[:-1]
        sql = sql.rstrip()[:-1]
    if ";" in bare:
        raise InvalidInput("one statement at a time")
    if not bare:
        raise InvalidInput("an empty statement")
    forbidden = _FORBIDDEN.search(bare)
    if forbidden:
        raise InvalidInput(f"app statements may not use {forbidden.group(1)!r}")
    names = [m.group(1) for m in _NAMED.finditer(bare)]
    names += [m.group(2) for m in _INDEX_ON.finditer(bare)]
    for name in names:
        if not name.strip('"').lower().startswith(prefix):
            raise InvalidInput(f"app {app!r} may only touch tables named {prefix}*, not {name!r}")
    return sql
