"""Sessions on SQLite: a row per session, a row per turn, read back in turn order; the person's and
agent's turns also go to `turns_fts`, the keyword index that past-session excerpts search."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from forethought.domain import AuditEvent, Role, Session, Turn
from forethought.domain.times import format_time
from forethought.errors import NotFound
from forethought.store.contracts import SessionStore
from forethought.store.sqlite.audit import insert_events
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.erasure import require_space
from forethought.store.sqlite.rows import session_from_rows, session_values
from forethought.store.sqlite.sql import newest_first
from forethought.store.types import TurnHit

__all__ = ["SQLiteSessions"]

_INSERT_TURN = "INSERT INTO turns (session_id, idx, role, speaker, text, occurred_at) VALUES (?, ?, ?, ?, ?, ?)"
_INDEX_TURN = "INSERT INTO turns_fts (body, space, session, turn) VALUES (?, ?, ?, ?)"
_SEARCHED = (Role.USER, Role.AGENT)  # what people and agents said; tool output and system text are not


class SQLiteSessions(SessionStore):
    def __init__(self, db: Database) -> None:
        self._db = db

    def add(self, session: Session, events: Sequence[AuditEvent] = ()) -> None:
        def write(conn: Any) -> None:
            require_space(conn, session.space_id)
            conn.execute(
                "INSERT INTO sessions (id, space_id, title, source, created_at, metadata) VALUES (?, ?, ?, ?, ?, ?)",
                session_values(session),
            )
            conn.executemany(_INSERT_TURN, [_turn_values(session.id, t) for t in session.turns])
            _index(conn, session.space_id, session.id, session.turns)
            insert_events(conn, events)

        self._db.write(write)

    def append_turns(self, space_id: str, session_id: str, turns: Sequence[Turn]) -> None:
        def write(conn: Any) -> None:
            row = conn.execute("SELECT space_id FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None or not self._db.own(space_id, row[0]):
                raise NotFound(f"no session {session_id!r} in this space")
            conn.executemany(_INSERT_TURN, [_turn_values(session_id, t) for t in turns])
            _index(conn, row[0], session_id, turns)

        self._db.write(write)

    def get(self, space_id: str, session_id: str) -> Session:
        def find(conn: Any) -> tuple[Any, builtins.list[Any]]:
            row = conn.execute(
                "SELECT id, space_id, title, source, created_at, metadata FROM sessions WHERE id = ?",
                (session_id,),
            ).fetchone()
            turns = (
                []
                if row is None
                else conn.execute(
                    "SELECT idx, role, speaker, text, occurred_at FROM turns WHERE session_id = ? ORDER BY idx",
                    (session_id,),
                ).fetchall()
            )
            return row, turns

        row, turns = self._db.read(find)
        if row is None or not self._db.own(space_id, row[1]):
            raise NotFound(f"no session {session_id!r} in this space")
        return session_from_rows(row, turns)

    def list(self, space_id: str, *, limit: int = 100, before_id: str | None = None) -> builtins.list[Session]:
        sql, args = newest_first("sessions", "id", space_id, limit, before_id)
        ids = [r[0] for r in self._db.fetch(sql, args)]
        return [self.get(space_id, i) for i in ids]

    def count(self, space_id: str) -> int:
        rows = self._db.fetch("SELECT COUNT(*) FROM sessions WHERE space_id = ?", (space_id,))
        return int(rows[0][0])

    def search_turns(self, space_id: str, words: Sequence[str], limit: int) -> builtins.list[TurnHit]:
        wanted = [w for w in dict.fromkeys(words) if w.strip()]
        if not wanted or limit < 1:
            return []
        # Every word is quoted, so nothing a user types is read as FTS syntax.
        expression = " OR ".join('"' + w.replace('"', '""') + '"' for w in wanted)
        rows = self._db.fetch(
            "SELECT session, turn, space, bm25(turns_fts) AS rank FROM turns_fts"
            " WHERE turns_fts MATCH ? AND space = ? ORDER BY rank LIMIT ?",
            (expression, space_id, limit),
        )
        # bm25() is lower-is-better; flipped so that higher is better, as every score here.
        return [TurnHit(r[0], int(r[1]), -float(r[3])) for r in rows if self._db.own(space_id, r[2])]


def _index(conn: Any, space_id: str, session_id: str, turns: Sequence[Turn]) -> None:
    conn.executemany(_INDEX_TURN, [(t.text, space_id, session_id, t.index) for t in turns if t.role in _SEARCHED])


def _turn_values(session_id: str, turn: Turn) -> tuple[Any, ...]:
    when = None if turn.occurred_at is None else format_time(turn.occurred_at)
    return (session_id, turn.index, turn.role.value, turn.speaker, turn.text, when)
