"""Sentence vectors of stored turns, written with the turns and read back by session: what the SQL
backends share (`sentence_vectors`, migration 17). Rows go with their session (a foreign key with
`ON DELETE CASCADE`, so deleting a session or erasing its space removes them), and a redacted
turn's rows are deleted with the rewrite (`forget_turn`): no vector outlives the text it was made of.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from forethought.store.sql.database import SqlDatabase
from forethought.store.sql.filters import marks
from forethought.store.sql.vectors import pack, unpack
from forethought.store.types import SentenceVector

__all__ = ["forget_turn", "insert_sentence_vectors", "read_sentence_vectors"]

_CHUNK = 500  # session ids bound in one statement
_INSERT = (
    "INSERT INTO sentence_vectors (session_id, space_id, turn_idx, start, model, digest, vec, passage_digest,"
    " passage_vec) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def insert_sentence_vectors(
    conn: Any, space_id: str, session_id: str, indexes: Sequence[int], vectors: Sequence[SentenceVector]
) -> None:
    """Write the vectors of the turns just written (`indexes`); a vector of another turn is refused."""
    known = set(indexes)
    rows = []
    for v in vectors:
        if v.turn_index not in known:
            raise ValueError(f"a sentence vector for turn {v.turn_index}, which this write does not add")
        passage = None if v.passage_vector is None else pack(v.passage_vector)
        rows.append(
            (session_id, space_id, v.turn_index, v.start, v.model, v.digest, pack(v.vector), v.passage_digest, passage)
        )
    if rows:
        conn.executemany(_INSERT, rows)


def forget_turn(conn: Any, session_id: str, turn_index: int) -> None:
    """Delete a turn's sentence vectors (its text is being rewritten)."""
    conn.execute("DELETE FROM sentence_vectors WHERE session_id = ? AND turn_idx = ?", (session_id, turn_index))


def read_sentence_vectors(
    db: SqlDatabase, space_id: str, session_ids: Sequence[str], model: str
) -> dict[tuple[str, int, int], SentenceVector]:
    """The `model` vectors stored for the sessions of the space, by (session id, turn, start)."""
    wanted = list(dict.fromkeys(session_ids))
    out: dict[tuple[str, int, int], SentenceVector] = {}
    for first in range(0, len(wanted), _CHUNK):
        chunk = wanted[first : first + _CHUNK]
        rows = db.fetch(
            "SELECT session_id, space_id, turn_idx, start, digest, vec, passage_digest, passage_vec"
            " FROM sentence_vectors"
            f" WHERE space_id = ? AND model = ? AND session_id IN ({marks(len(chunk))})",
            [space_id, model, *chunk],
        )
        for session_id, owner, turn, start, digest, blob, passage_digest, passage in rows:
            if db.own(space_id, owner):
                key = (str(session_id), int(turn), int(start))
                out[key] = SentenceVector(
                    int(turn), int(start), model, str(digest), unpack(blob),
                    None if passage is None else str(passage_digest), None if passage is None else unpack(passage),
                )  # fmt: skip
    return out
