"""What every SQL backend's migration history shares: the core's component name, one step, and
reading a folder of numbered `NNNN_name.sql` steps (1..n without gaps)."""

from __future__ import annotations

import re
from importlib.resources.abc import Traversable
from typing import NamedTuple

from forethought.errors import BackendError

__all__ = ["CORE", "Migration", "read_migrations"]

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
