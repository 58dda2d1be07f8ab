"""Removing records for good on PostgreSQL: the rows of every table (tags, terms, vectors and
outbox jobs go with their record by cascade) and their words in the keyword statistics; links and
traces are `store/sql/erasure.py`'s."""

from __future__ import annotations

from typing import Any

from forethought.errors import NotFound

__all__ = ["delete_records", "require_space"]


def require_space(conn: Any, space_id: str) -> None:
    """NotFound unless the space exists; the row stays key-share-locked until the transaction ends,
    so an erasure (which deletes the row) waits for this write instead of being resurrected by it.
    A key share lock does not stop other writers updating the space's counters: a share lock did,
    and two writers each holding one and then updating the row deadlocked (seen under load)."""
    if conn.execute("SELECT 1 FROM spaces WHERE id = ? FOR KEY SHARE", (space_id,)).fetchone() is None:
        raise NotFound("no such space (it may have been erased)")


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
