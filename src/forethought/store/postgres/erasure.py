"""Removing records for good on PostgreSQL: the rows of every table (tags, terms, vectors and
outbox jobs go with their record by cascade), the links to them, and their words in traces."""

from __future__ import annotations

import json
from typing import Any

from forethought.errors import NotFound
from forethought.store.rows import dump_json

__all__ = ["cut_links", "delete_records", "forget_in_traces", "marks", "require_space"]

_TRACE_KEYS = frozenset({"id", "record_id", "handle", "lineage_id"})  # what a trace item keeps of a forgotten record


def marks(n: int) -> str:
    """`n` comma-separated placeholders."""
    return ", ".join("?" * n)


def require_space(conn: Any, space_id: str) -> None:
    """NotFound unless the space exists; the row stays key-share-locked until the transaction ends,
    so an erasure (which deletes the row) waits for this write instead of being resurrected by it.
    A key share lock does not stop other writers updating the space's counters: a share lock did,
    and two writers each holding one and then updating the row deadlocked (seen under load)."""
    if conn.execute("SELECT 1 FROM spaces WHERE id = ? FOR KEY SHARE", (space_id,)).fetchone() is None:
        raise NotFound("no such space (it may have been erased)")


def cut_links(conn: Any, space_id: str, ids: list[str]) -> None:
    """Remove references to erased ids from the records that point at them."""
    gone = set(ids)
    rows = conn.execute(
        "SELECT id, supersedes, superseded_by, previous_id FROM records WHERE space_id = ?"
        " AND NOT (id = ANY(?)) AND (superseded_by = ANY(?) OR previous_id = ANY(?) OR supersedes <> '[]')",
        (space_id, ids, ids, ids),
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


def forget_in_traces(conn: Any, space_id: str, ids: list[str]) -> None:
    """Trace items about erased ids keep their ids and numbers; their words become "[forgotten]"."""
    gone = set(ids)

    def cut(value: Any) -> Any:
        if isinstance(value, list):
            return [cut(v) for v in value]
        if isinstance(value, dict):
            if gone & {v for v in value.values() if isinstance(v, str)}:
                return {k: v if k in _TRACE_KEYS or not isinstance(v, str) else "[forgotten]" for k, v in value.items()}
            return {k: cut(v) for k, v in value.items()}
        return value

    for start in range(0, len(ids), 50):
        chunk = ids[start : start + 50]
        found = " OR ".join("strpos(data, ?) > 0" for _ in chunk)
        rows = conn.execute(f"SELECT id, data FROM traces WHERE space_id = ? AND ({found})", (space_id, *chunk))
        for trace_id, data in rows.fetchall():
            conn.execute("UPDATE traces SET data = ? WHERE id = ?", (dump_json(cut(json.loads(data))), trace_id))


def delete_records(conn: Any, seqs: list[int]) -> int:
    """Delete records of one space by seq (their tags, terms, vectors and jobs by cascade, their words
    from the space's keyword statistics); returns vectors removed."""
    if not seqs:
        return 0
    row = conn.execute("SELECT COUNT(*) FROM record_vectors WHERE record_seq = ANY(?)", (seqs,)).fetchone()
    space = conn.execute("SELECT space_id FROM records WHERE seq = ?", (seqs[0],)).fetchone()
    if space is not None:  # their words leave the space's keyword statistics; a word no record holds goes
        conn.execute(
            "UPDATE record_lexemes s SET df = s.df - gone.n FROM (SELECT lexeme, COUNT(*) AS n FROM"
            " (SELECT unnest(tsvector_to_array(body)) AS lexeme FROM records WHERE seq = ANY(?)) held"
            " GROUP BY lexeme) gone WHERE s.space_id = ? AND s.lexeme = gone.lexeme",
            (seqs, space[0]),
        )
        conn.execute("DELETE FROM record_lexemes WHERE space_id = ? AND df <= 0", (space[0],))
    conn.execute("DELETE FROM records WHERE seq = ANY(?)", (seqs,))
    return int(row[0])
