"""Removing records for good: the rows of every table and index, the links to them, and the
traces the text could leave in index segments or the WAL."""

from __future__ import annotations

import logging
from typing import Any

from forethought.errors import NotFound
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.driver import retrying
from forethought.store.sqlite.sql import chunks, marks

__all__ = ["delete_rows", "purge", "require_space"]

log = logging.getLogger(__name__)


def require_space(conn: Any, space_id: str) -> None:
    """NotFound unless the space exists (a write to an erased space must not resurrect it)."""
    if conn.execute("SELECT 1 FROM spaces WHERE id = ?", (space_id,)).fetchone() is None:
        raise NotFound("no such space (it may have been erased)")


def delete_rows(conn: Any, rowids: list[int]) -> int:
    """Delete records by rowid from every table and index; returns vectors removed."""
    removed_vectors = 0
    for chunk in chunks(rowids, 500):
        placeholders = marks(len(chunk))
        conn.execute(f"DELETE FROM records_fts WHERE rowid IN ({placeholders})", chunk)
        removed_vectors += conn.execute(f"DELETE FROM vectors WHERE record_rowid IN ({placeholders})", chunk).rowcount
        conn.execute(f"DELETE FROM evidence_vectors WHERE record_rowid IN ({placeholders})", chunk)
        conn.execute(f"DELETE FROM record_tags WHERE record_rowid IN ({placeholders})", chunk)
        conn.execute(f"DELETE FROM record_terms WHERE record_rowid IN ({placeholders})", chunk)
        conn.execute(f"DELETE FROM records WHERE rowid IN ({placeholders})", chunk)
    return int(removed_vectors)


def purge(db: Database, *, secure_fts_delete: bool) -> bool:
    """After an erasure: make sure no trace of the text survives in index segments, the WAL or the
    main file's pages. True when done; False when readers kept the checkpoint from finishing —
    then the database is marked (`Database.mark_purge_pending`) and later writes, in this process
    or another, retry it (see `Database.checkpoint`)."""
    conn = db.conn()

    def optimize() -> None:
        conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")
        conn.execute("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')")

    if not secure_fts_delete:
        retrying(optimize, counter=db.count_retry)
    db.purge_pending = True  # until a checkpoint has got through, after this erasure's commit
    done = db.checkpoint()
    if not done:
        log.warning("readers kept the checkpoint after an erasure from finishing; it is retried after later writes")
        db.mark_purge_pending()
    return done
