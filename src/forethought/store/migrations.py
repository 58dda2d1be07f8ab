"""What every SQL backend's migration history shares: the core's component name, one step, and
reading a folder of numbered `NNNN_name.sql` steps (1..n without gaps)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from importlib.resources.abc import Traversable
from typing import Any, NamedTuple

from forethought.errors import BackendError
from forethought.store.app_sql import split_statements

__all__ = ["CORE", "Migration", "apply_steps", "read_migrations"]

CORE = "core"
_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


class Migration(NamedTuple):
    version: int
    name: str
    sql: str


def read_migrations(folder: Traversable) -> list[Migration]:
    """The steps in `folder`, in order; BackendError when they are not numbered 1..n."""
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


def apply_steps(
    component: str,
    migrations: Sequence[Migration],
    done: set[int],
    execute: Callable[[str], Any],
    record: Callable[[Migration], Any],
    *,
    upgrade: str,
    owner: str,
) -> int:
    """Inside the caller's transaction and lock: refuse a history newer than `migrations`, then run
    each step not in `done` statement by statement through `execute` and `record` it in the history;
    returns the version reached."""
    newest_known = migrations[-1].version if migrations else 0
    if done and max(done) > newest_known:
        what = "schema version" if component == CORE else f"{component} schema version"
        raise BackendError(
            f"this database has {what} {max(done)}, newer than {owner} understands ({newest_known}); {upgrade}"
        )
    for migration in migrations:
        if migration.version not in done:
            for statement in split_statements(migration.sql):
                execute(statement)
            record(migration)
    return newest_known
