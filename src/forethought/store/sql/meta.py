"""The database-wide facts both SQL backends keep in `meta`: the embedder its vectors come from."""

from __future__ import annotations

from typing import Any

from forethought.errors import BackendError, Conflict
from forethought.store.sql.database import SqlDatabase

__all__ = ["bind_embedder"]


def bind_embedder(db: SqlDatabase, opened_for: int, name: str, dim: int) -> None:
    """Bind the database to one embedding model on first use (see `Store.check_embedder`)."""
    if dim != opened_for:
        raise BackendError(f"embedder {name} makes {dim}-dimensional vectors; this store was opened for {opened_for}")

    def check(conn: Any) -> None:
        conn.execute("INSERT INTO meta (key, value) VALUES ('embedder', ?) ON CONFLICT DO NOTHING", (name,))
        row = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
        if row[0] != name:
            raise Conflict(
                f"this database holds vectors from embedder {row[0]!r}, not {name!r}; open it with the same embedder"
            )

    db.write(check)
