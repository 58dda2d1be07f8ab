"""The embedded default store: one SQLite file (WAL) holding every space.

`SQLiteStore` opens the file, runs the migrations and owns one object per contract, each in its
own module and all sharing the per-thread connections of `connection.Database`:
`spaces.py`, `records.py`, `search.py`, `outbox.py`, `sessions.py`, `app_tables.py`; keys, audit
and traces are SQL every backend shares (`store/sql/`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from forethought.store.base import Capabilities, Store
from forethought.store.sql.audit import SqlAuditLog
from forethought.store.sql.imports import SqlImportJobs
from forethought.store.sql.keys import SqlKeys
from forethought.store.sql.limits import SqlLimits
from forethought.store.sql.logins import SqlLogins
from forethought.store.sql.meta import bind_embedder
from forethought.store.sql.traces import SqlTraces
from forethought.store.sqlite.app_tables import SQLiteAppTables
from forethought.store.sqlite.connection import PURGE_MARK, Database
from forethought.store.sqlite.driver import retrying, sqlite3, supports_fts_secure_delete
from forethought.store.sqlite.erasure import require_space
from forethought.store.sqlite.files import create_private, make_private
from forethought.store.sqlite.index_sync import SQLiteIndexSync
from forethought.store.sqlite.migrate import CORE, apply_migrations
from forethought.store.sqlite.outbox import SQLiteOutbox
from forethought.store.sqlite.records import SQLiteRecords
from forethought.store.sqlite.search import SQLiteSearch
from forethought.store.sqlite.sessions import SQLiteSessions
from forethought.store.sqlite.spaces import SQLiteSpaces
from forethought.store.sqlite.vector_cache import VectorCache
from forethought.vectors import DEFAULT_THRESHOLD

__all__ = ["SQLiteStore"]


class SQLiteStore(Store):
    """A Store on one SQLite file. Safe for many threads (a connection each) and many processes."""

    def __init__(self, path: str | Path, *, dim: int = 384, hnsw_threshold: int = DEFAULT_THRESHOLD) -> None:
        super().__init__()
        self.path = Path(path) if str(path) != ":memory:" else None
        self._target = str(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            create_private(self.path)  # owner-only before SQLite writes a byte (files.py)
        secure = supports_fts_secure_delete()
        self.capabilities = Capabilities(fts=True, vectors=True, secure_fts_delete=secure)
        self._db = Database(self._target, self.counters)
        # Vector snapshots live beside the database (a derived cache: deleting them is harmless).
        snapshots = None if self.path is None else self.path.with_name(self.path.name + ".vectors")
        self.vectors = VectorCache(dim, snapshot_dir=snapshots, threshold=hnsw_threshold)
        self.dim = dim
        conn = self._db.conn()
        retrying(lambda: apply_migrations(conn))
        if self.path is not None:
            make_private(self.path)
        if secure:
            self._secure_turn_index()
        self.spaces = SQLiteSpaces(self._db, self.vectors, secret=self._load_secret(), secure_fts_delete=secure)
        self.records = SQLiteRecords(self._db, self.vectors, dim=dim, secure_fts_delete=secure)
        self.search = SQLiteSearch(self._db, self.vectors)
        self.outbox = SQLiteOutbox(self._db, dim=dim)
        self.index_sync = SQLiteIndexSync(self._db)
        self.sessions = SQLiteSessions(self._db, secure_fts_delete=secure)
        self.traces = SqlTraces(self._db, require_space)
        self.keys = SqlKeys(self._db)
        self.logins = SqlLogins(self._db, _serialised_already)
        self.limits = SqlLimits(self._db)
        self.imports = SqlImportJobs(self._db, _serialised_already)
        self.audit = SqlAuditLog(self._db)
        self.app_tables = SQLiteAppTables(self._db)

    def close(self) -> None:
        self._db.close()

    def erasure_pending(self) -> bool:
        return self._db.purge_marked()

    def finish_erasure(self) -> bool:
        return not self._db.purge_marked() or self._db.checkpoint()

    def _secure_turn_index(self) -> None:
        """Set the persistent FTS5 secure-delete option on the session index (migration 8) once;
        opening a database that has it writes nothing."""
        found = self._db.fetch("SELECT v FROM turns_fts_config WHERE k = 'secure-delete'", ())
        if not found or str(found[0][0]) != "1":
            self._db.write(lambda c: c.execute("INSERT INTO turns_fts (turns_fts, rank) VALUES ('secure-delete', 1)"))

    def _load_secret(self) -> bytes:
        def load(conn: Any) -> bytes:
            row = conn.execute("SELECT value FROM meta WHERE key = 'space_secret'").fetchone()
            if row is None:
                value = secrets.token_hex(32)
                conn.execute("INSERT INTO meta (key, value) VALUES ('space_secret', ?)", (value,))
                if self.capabilities.secure_fts_delete:
                    # A persistent FTS5 option: deletes then remove the terms from the index itself.
                    conn.execute("INSERT INTO records_fts (records_fts, rank) VALUES ('secure-delete', 1)")
                return bytes.fromhex(value)
            return bytes.fromhex(row[0])

        return self._db.write(load)

    def stats(self) -> dict[str, Any]:
        def read(conn: Any) -> dict[str, Any]:
            return {
                "kind": "sqlite",
                "path": self._target,
                "sqlite": sqlite3.sqlite_version,
                "fts_secure_delete": self.capabilities.secure_fts_delete,
                "schema_version": conn.execute(
                    "SELECT MAX(version) FROM schema_migrations WHERE component = ?", (CORE,)
                ).fetchone()[0],
                "spaces": conn.execute("SELECT COUNT(*) FROM spaces").fetchone()[0],
                "records": conn.execute("SELECT COUNT(*) FROM records").fetchone()[0],
                "records_by_status": dict(conn.execute("SELECT status, COUNT(*) FROM records GROUP BY status")),
                "pending_outbox_jobs": conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0],
                "pending_index_sync_jobs": conn.execute("SELECT COUNT(*) FROM index_sync").fetchone()[0],
                "erasure_pending": self._db.purge_pending
                or conn.execute("SELECT 1 FROM meta WHERE key = ?", (PURGE_MARK,)).fetchone() is not None,
            }

        info = self._db.read(read)
        if self.path is not None:
            info["size_mb"] = round(sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*")) / 1e6, 2)
        return info

    def check_embedder(self, name: str, dim: int) -> None:
        bind_embedder(self._db, self.dim, name, dim)

    @contextmanager
    def raw(self) -> Iterator[Any]:
        """The calling thread's connection, for tests and maintenance tools only."""
        yield self._db.conn()


def _serialised_already(_conn: Any, _name: str) -> None:
    """SQLite runs one write transaction at a time (BEGIN IMMEDIATE): nothing more to lock."""
