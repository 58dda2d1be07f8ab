"""Where a store lives, as users name it: a file path (SQLite) or a `postgresql://` URL."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from forethought.errors import InvalidInput

__all__ = ["backend_for", "display_target", "is_postgres_url", "local_file_beside"]

_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: object) -> bool:
    """Whether `target` names a PostgreSQL database (`postgresql://...` or `postgres://...`)."""
    return isinstance(target, str) and target.startswith(_SCHEMES)


_CONNINFO = re.compile(r"(?:^|\s)(?:dbname|host|hostaddr|user|port|password)=")


def backend_for(target: str | Path) -> str:
    """The registered store backend that opens `target`. A libpq `key=value` connection string is
    refused rather than taken for a file name (it once made SQLite files named after it)."""
    if isinstance(target, str) and _CONNINFO.search(target):
        raise InvalidInput("name a PostgreSQL database as a postgresql://user@host:port/dbname URL")
    return "postgresql" if is_postgres_url(target) else "sqlite"


def display_target(target: str | Path) -> str:
    """`target` as it may be printed or logged: a URL loses its password (and its query, which
    may carry one too)."""
    if not is_postgres_url(target):
        return str(target)
    parts = urlsplit(str(target))
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = (f"{parts.username}@" if parts.username else "") + host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def local_file_beside(target: str | Path, suffix: str) -> Path:
    """A file of this machine that belongs to `target`: `<db>.<suffix>` beside a SQLite file, or
    one under `.forethought/` named after the database a URL names (never its password)."""
    if not is_postgres_url(target):
        db = Path(target)
        return db.with_name(f"{db.name}.{suffix}")
    digest = hashlib.sha256(display_target(target).encode()).hexdigest()[:12]
    return Path(".forethought") / f"postgresql-{digest}.{suffix}"
