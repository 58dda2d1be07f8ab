"""The PostgreSQL store: every space in one PostgreSQL database, vectors in pgvector.

`PostgresStore` opens a connection pool, runs the migrations (the same history and version
sequence as the SQLite store's), makes the HNSW index for the store's vector dimension, and owns
one object per contract, each in its own module: `spaces.py`, `records.py`, `search.py`,
`outbox.py`, `sessions.py`, `app_tables.py`; keys, audit and traces are SQL every backend shares
(`store/sql/`). Several processes may open the same database (several API workers).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from forethought.errors import BackendError
from forethought.store.base import Capabilities, Store
from forethought.store.postgres.app_tables import PostgresAppTables
from forethought.store.postgres.connection import Database
from forethought.store.postgres.erasure import require_space
from forethought.store.postgres.index_sync import PostgresIndexSync
from forethought.store.postgres.migrate import CORE, apply_migrations
from forethought.store.postgres.outbox import PostgresOutbox
from forethought.store.postgres.records import PostgresRecords
from forethought.store.postgres.search import PostgresSearch
from forethought.store.postgres.sessions import PostgresSessions
from forethought.store.postgres.spaces import PostgresSpaces
from forethought.store.sql.audit import SqlAuditLog
from forethought.store.sql.imports import SqlImportJobs
from forethought.store.sql.keys import SqlKeys
from forethought.store.sql.limits import SqlLimits
from forethought.store.sql.logins import SqlLogins
from forethought.store.sql.meta import bind_embedder
from forethought.store.sql.traces import SqlTraces
from forethought.targets import is_postgres_url

__all__ = ["PostgresStore"]

PGVECTOR_NEEDED = (0, 8)  # iterative index scans
# HNSW build parameters (pgvector's defaults): 16 links a node, a candidate list of 64.
_HNSW = "WITH (m = 16, ef_construction = 64)"


class PostgresStore(Store):
    """A Store on one PostgreSQL database (with the `vector` and `unaccent` extensions available).
    Safe for many threads (a pooled connection each) and many processes."""

    def __init__(self, dsn: str | Path, *, dim: int = 384, max_connections: int = 8) -> None:
        super().__init__()
        if not is_postgres_url(dsn):  # a Path never is one: it would have lost a slash
            raise BackendError("a PostgreSQL store needs a postgresql:// URL")
        assert isinstance(dsn, str)
        self.dim = dim
        self._db = Database(dsn, self.counters, max_connections=max_connections)
        try:
            self._db.read(_require_extensions)
            self._db.write(self._migrate)
            version = self._db.fetch("SELECT extversion FROM pg_extension WHERE extname = 'vector'", ())[0][0]
        except BaseException:
            self._db.close()
            raise
        self.pgvector = str(version)
        self.capabilities = Capabilities(fts=True, vectors=True, secure_fts_delete=True, shared_server=True)
        self.spaces = PostgresSpaces(self._db, secret=self._load_secret())
        self.records = PostgresRecords(self._db, dim=dim)
        self.search = PostgresSearch(self._db, dim=dim)
        self.outbox = PostgresOutbox(self._db, dim=dim)
        self.index_sync = PostgresIndexSync(self._db)
        self.sessions = PostgresSessions(self._db)
        self.traces = SqlTraces(self._db, require_space)
        self.keys = SqlKeys(self._db)
        self.logins = SqlLogins(self._db, _advisory_lock)
        self.limits = SqlLimits(self._db)
        self.imports = SqlImportJobs(self._db, _advisory_lock)
        self.audit = SqlAuditLog(self._db)
        self.app_tables = PostgresAppTables(self._db)

    def _migrate(self, conn: Any) -> None:
        """The migrations, then the HNSW index over this dimension's vectors (made once), in one
        transaction under the migration lock, so processes opening a new database together wait."""
        apply_migrations(conn)
        conn.execute(
            f"CREATE INDEX IF NOT EXISTS record_vectors_hnsw_{int(self.dim)} ON record_vectors USING hnsw"
            f" ((embedding::vector({int(self.dim)})) vector_cosine_ops) {_HNSW}"
        )

    def _load_secret(self) -> bytes:
        def load(conn: Any) -> bytes:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('space_secret', ?) ON CONFLICT DO NOTHING",
                (secrets.token_hex(32),),
            )
            row = conn.execute("SELECT value FROM meta WHERE key = 'space_secret'").fetchone()
            return bytes.fromhex(row[0])

        return self._db.write(load)

    def close(self) -> None:
        self._db.close()

    def stats(self) -> dict[str, Any]:
        def read(conn: Any) -> dict[str, Any]:
            return {
                "kind": "postgresql",
                "server": conn.execute("SHOW server_version").fetchone()[0],
                "pgvector": self.pgvector,
                "fts_secure_delete": True,
                "schema_version": conn.execute(
                    "SELECT MAX(version) FROM schema_migrations WHERE component = ?", (CORE,)
                ).fetchone()[0],
                "spaces": conn.execute("SELECT COUNT(*) FROM spaces").fetchone()[0],
                "records": conn.execute("SELECT COUNT(*) FROM records").fetchone()[0],
                "records_by_status": dict(
                    conn.execute("SELECT status, COUNT(*) FROM records GROUP BY status").fetchall()
                ),
                "pending_outbox_jobs": conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0],
                "pending_index_sync_jobs": conn.execute("SELECT COUNT(*) FROM index_sync").fetchone()[0],
                "erasure_pending": False,
                "size_mb": round(conn.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 1e6, 2),
            }

        return self._db.read(read)

    def check_embedder(self, name: str, dim: int) -> None:
        bind_embedder(self._db, self.dim, name, dim)

    @contextmanager
    def raw(self) -> Iterator[Any]:
        """A pooled connection, for tests and maintenance tools only."""
        with self._db.pool.connection() as conn:
            yield conn


def _advisory_lock(conn: Any, name: str) -> None:
    """Serialise the transactions that name `name` (until each commits)."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (name,))


def _require_extensions(conn: Any) -> None:
    """A clear error, before any migration, when an extension the schema needs can be neither
    found nor created by this role (pgvector is not a trusted extension: a superuser creates it)."""
    for name in ("vector", "unaccent"):
        row = conn.execute(
            "SELECT installed_version IS NOT NULL, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user),"
            " COALESCE(installed_version, default_version) FROM pg_available_extensions WHERE name = ?",
            (name,),
        ).fetchone()
        if row is None:
            raise BackendError(f"the PostgreSQL server has no {name!r} extension installed (see docs/configuration.md)")
        installed, superuser, version = row
        if name == "vector" and not _at_least(str(version), PGVECTOR_NEEDED):
            # Older releases stop a filtered index scan at its first candidates: a small space in a
            # large table would find none of its own vectors.
            raise BackendError(f"pgvector {'.'.join(map(str, PGVECTOR_NEEDED))} or newer is needed (found {version})")
        if not installed and not superuser and name == "vector":
            database = conn.execute("SELECT current_database()").fetchone()[0]
            raise BackendError(
                f"the database {database!r} has no 'vector' extension and this role may not create it: "
                f"ask a superuser to run CREATE EXTENSION vector; in it once"
            )


def _at_least(version: str, wanted: tuple[int, ...]) -> bool:
    parts = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
    return parts >= wanted
