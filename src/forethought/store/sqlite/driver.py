"""Which SQLite we run on, and how a connection is opened.

`pysqlite3-binary` bundles a recent SQLite (with FTS5 `secure-delete`, 3.43+) where a wheel exists;
elsewhere the standard library's sqlite3 is used and erasure falls back to an FTS `optimize`.
"""

from __future__ import annotations

import importlib
import logging
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from forethought.errors import BackendError, Conflict, StoreBusy

try:  # pragma: no cover - which branch runs depends on the platform
    sqlite3: Any = importlib.import_module("pysqlite3.dbapi2")
except ImportError:  # pragma: no cover
    sqlite3 = importlib.import_module("sqlite3")

__all__ = [
    "BUSY_TIMEOUT_MS",
    "WRITE_DEADLINE_S",
    "connect",
    "is_busy",
    "retrying",
    "sqlite3",
    "supports_fts_secure_delete",
]

log = logging.getLogger(__name__)

# How long a caller may wait for the write lock before StoreBusy. Writes are short transactions,
# so hitting this means something is badly wrong (or a process holds a transaction open).
WRITE_DEADLINE_S = 60.0
BUSY_TIMEOUT_MS = 5_000

T = TypeVar("T")


def supports_fts_secure_delete() -> bool:
    return bool(sqlite3.sqlite_version_info >= (3, 43, 0))


def connect(path: Path | str) -> Any:
    """A connection in autocommit mode (transactions are explicit) with the store's pragmas."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if str(path) != ":memory:":
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise BackendError(f"could not put {path} in WAL mode (got {mode})")
    conn.execute("PRAGMA foreign_keys = ON")
    # Deleted content is overwritten with zeros, so erased text does not linger in free pages.
    conn.execute("PRAGMA secure_delete = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def is_busy(exc: Exception) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def retrying(fn: Callable[[], T], *, counter: Callable[[], None] | None = None) -> T:
    """Run `fn` (one whole transaction), retrying while SQLite reports the database busy.

    SQLite's own busy handler already waits on most lock conflicts; this catches the cases it
    cannot (a read transaction that needs to become a write, checkpoints, snapshot races), so
    "database is locked" never reaches a caller before the deadline.
    """
    deadline = time.monotonic() + WRITE_DEADLINE_S
    delay = 0.005
    while True:
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise BackendError(f"database error: {exc}") from exc
            if time.monotonic() > deadline:
                raise StoreBusy(f"the database stayed locked for {WRITE_DEADLINE_S:.0f}s") from exc
            if counter is not None:
                counter()
            log.debug("database busy, retrying in %.3fs", delay)
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.25)
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"the change conflicts with stored data: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise BackendError(f"database error: {exc}") from exc
