"""Removing records for good: the rows of every table and index, the links to them, and the
traces the text could leave in index segments or the WAL."""

from __future__ import annotations

import json
import logging
from typing import Any

from forethought.errors import NotFound
from forethought.store.rows import dump_json
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.driver import retrying
from forethought.store.sqlite.sql import chunks, marks

__all__ = ["cut_links", "delete_rows", "forget_in_traces", "purge", "require_space"]

log = logging.getLogger(__name__)


def require_space(conn: Any, space_id: str) -> None:
    """NotFound unless the space exists (a write to an erased space must not resurrect it)."""
    if conn.execute("SELECT 1 FROM spaces WHERE id = ?", (space_id,)).fetchone() is None:
        raise NotFound("no such space (it may have been erased)")


def cut_links(conn: Any, space_id: str, ids: list[str]) -> None:
    """Remove references to erased ids from the records that point at them."""
    gone = set(ids)
    placeholders = marks(len(ids))
    rows = conn.execute(
        f"SELECT id, supersedes, superseded_by, previous_id FROM records WHERE space_id = ?"
        f" AND id NOT IN ({placeholders})"
        f" AND (superseded_by IN ({placeholders}) OR previous_id IN ({placeholders}) OR supersedes != '[]')",
        (space_id, *ids, *ids, *ids),
    ).fetchall()
    for record_id, supersedes, superseded_by, previous_id in rows:
        kept = [i for i in json.loads(supersedes) if i not in gone]
        conn.execute(
            "UPDATE records SET supersedes = ?, superseded_by = ?, previous_id = ? WHERE id = ?",
            (
                dump_json(kept),
                None if superseded_by in gone else superseded_by,
                None if previous_id in gone else previous_id,
                record_id,
            ),
        )


_TRACE_KEYS = frozenset({"id", "record_id", "handle", "lineage_id"})  # what a trace item keeps of a forgotten record


def forget_in_traces(conn: Any, space_id: str, ids: list[str]) -> None:
    """Traces name records by id and say why each was used or filtered, in words drawn from the
    record ("names `x`; shares 'vault'"): the items about erased ids keep their ids and numbers;
    their words become "[forgotten]", so the trace still reads."""
    gone = set(ids)

    def cut(value: Any) -> Any:
        if isinstance(value, list):
            return [cut(v) for v in value]
        if isinstance(value, dict):
            if gone & {v for v in value.values() if isinstance(v, str)}:
                return {k: v if k in _TRACE_KEYS or not isinstance(v, str) else "[forgotten]" for k, v in value.items()}
            return {k: cut(v) for k, v in value.items()}
        return value

    for chunk in chunks(ids, 50):
        found = " OR ".join("instr(data, ?) > 0" for _ in chunk)
        rows = conn.execute(f"SELECT id, data FROM traces WHERE space_id = ? AND ({found})", (space_id, *chunk))
        for trace_id, data in rows.fetchall():
            conn.execute("UPDATE traces SET data = ? WHERE id = ?", (dump_json(cut(json.loads(data))), trace_id))


def delete_rows(conn: Any, rowids: list[int]) -> int:
    """Delete records by rowid from every table and index; returns vectors removed."""
    removed_vectors = 0
    for chunk in chunks(rowids, 500):
        placeholders = marks(len(chunk))
        conn.execute(f"DELETE FROM records_fts WHERE rowid IN ({placeholders})", chunk)
        removed_vectors += conn.execute(f"DELETE FROM vectors WHERE record_rowid IN ({placeholders})", chunk).rowcount
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
