"""Sessions on PostgreSQL: a row per session, a row per turn, read back in turn order; the
person's and agent's turns carry a `tsvector` (`turns.body`), the keyword index that past-session
excerpts search."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from forethought.domain import Action, AuditEvent, Role, Session, Turn, new_id
from forethought.domain.times import format_time, utcnow
from forethought.errors import NotFound
from forethought.store.postgres.connection import Database
from forethought.store.postgres.erasure import require_space
from forethought.store.postgres.search import TEXT_SEARCH, any_word_query
from forethought.store.rows import session_values
from forethought.store.sql.audit import insert_events
from forethought.store.sql.sentences import forget_turn, insert_sentence_vectors, read_sentence_vectors
from forethought.store.sql.sessions import SqlSessionReads
from forethought.store.types import SentenceVector, TurnHit

__all__ = ["PostgresSessions"]

_INSERT_TURN = (
    "INSERT INTO turns (session_id, idx, space_id, role, speaker, text, occurred_at, body)"
    f" VALUES (?, ?, ?, ?, ?, ?, ?, CASE WHEN ? THEN to_tsvector('{TEXT_SEARCH}', ?) END)"
)
_SEARCHED = (Role.USER, Role.AGENT)  # what people and agents said; tool output and system text are not


class PostgresSessions(SqlSessionReads):
    _db: Database

    def __init__(self, db: Database) -> None:
        self._db = db

    def add(self, session: Session, events: Sequence[AuditEvent] = (), vectors: Sequence[SentenceVector] = ()) -> None:
        def write(conn: Any) -> None:
            require_space(conn, session.space_id)
            conn.execute(
                "INSERT INTO sessions (id, space_id, title, source, created_at, metadata) VALUES (?, ?, ?, ?, ?, ?)",
                session_values(session),
            )
            conn.executemany(_INSERT_TURN, [_turn_values(session.space_id, session.id, t) for t in session.turns])
            insert_sentence_vectors(conn, session.space_id, session.id, [t.index for t in session.turns], vectors)
            insert_events(conn, events)

        self._db.write(write)

    def append_turns(
        self, space_id: str, session_id: str, turns: Sequence[Turn], vectors: Sequence[SentenceVector] = ()
    ) -> None:
        def write(conn: Any) -> None:
            row = conn.execute("SELECT space_id FROM sessions WHERE id = ? FOR KEY SHARE", (session_id,)).fetchone()
            if row is None or not self._db.own(space_id, row[0]):
                raise NotFound(f"no session {session_id!r} in this space")
            conn.executemany(_INSERT_TURN, [_turn_values(row[0], session_id, t) for t in turns])
            insert_sentence_vectors(conn, row[0], session_id, [t.index for t in turns], vectors)

        self._db.write(write)

    def known_refs(self, space_id: str, refs: Sequence[str]) -> builtins.set[str]:
        wanted = builtins.list(dict.fromkeys(refs))
        if not wanted:
            return set()
        rows = self._db.fetch(
            "SELECT (metadata::jsonb) ->> 'ref' FROM sessions"
            " WHERE space_id = ? AND ((metadata::jsonb) ->> 'ref') = ANY(?)",
            (space_id, wanted),
        )
        return {r[0] for r in rows}

    def sentence_vectors(
        self, space_id: str, session_ids: Sequence[str], model: str
    ) -> builtins.dict[tuple[str, int, int], SentenceVector]:
        return read_sentence_vectors(self._db, space_id, session_ids, model)

    def search_turns(self, space_id: str, words: Sequence[str], limit: int) -> builtins.list[TurnHit]:
        wanted = [w for w in dict.fromkeys(words) if w.strip()]
        if not wanted or limit < 1:
            return []
        query, query_args = any_word_query(wanted)
        rows = self._db.fetch(
            f"SELECT t.session_id, t.idx, t.space_id, ts_rank(t.body, w.q, 1) AS rank FROM {query} CROSS JOIN turns t"
            " WHERE t.space_id = ? AND t.body @@ w.q ORDER BY rank DESC, t.session_id, t.idx LIMIT ?",
            (*query_args, space_id, limit),
        )
        return [TurnHit(r[0], int(r[1]), float(r[3])) for r in rows if self._db.own(space_id, r[2])]

    # -- erasure ---------------------------------------------------------------------------
    def delete(self, space_id: str, session_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            row = conn.execute("SELECT space_id FROM sessions WHERE id = ? FOR UPDATE", (session_id,)).fetchone()
            if row is None or not self._db.own(space_id, row[0]):
                raise NotFound(f"no session {session_id!r} in this space")
            turns = conn.execute("SELECT COUNT(*) FROM turns WHERE session_id = ?", (session_id,)).fetchone()[0]
            conn.execute("DELETE FROM traces WHERE session_id = ? AND space_id = ?", (session_id, space_id))
            conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))  # its turns go with it
            details = {"session": session_id, "turns": int(turns)}
            insert_events(conn, [_event(space_id, Action.SESSION_DELETED, actor, details)])
            return int(turns)

        removed: int = self._db.write(erase)
        return removed

    def redact(self, space_id: str, phrases: Sequence[str], placeholder: str, *, actor: str) -> int:
        wanted = sorted({p for p in phrases if p and p.strip()}, key=len, reverse=True)  # longest first
        if not wanted:
            return 0

        def rewrite(conn: Any) -> int:
            changed = 0
            for phrase in wanted:
                rows = conn.execute(
                    "SELECT session_id, idx, role, text FROM turns WHERE space_id = ? AND strpos(text, ?) > 0",
                    (space_id, phrase),
                ).fetchall()
                for session_id, idx, role, text in rows:
                    clean = text.replace(phrase, placeholder)
                    conn.execute(
                        f"UPDATE turns SET text = ?, body = CASE WHEN ? THEN to_tsvector('{TEXT_SEARCH}', ?) END"
                        " WHERE session_id = ? AND idx = ?",
                        (clean, Role(role) in _SEARCHED, clean, session_id, idx),
                    )
                    forget_turn(conn, session_id, idx)
                    changed += 1
                titles = conn.execute(
                    "SELECT id, title FROM sessions WHERE space_id = ? AND strpos(title, ?) > 0", (space_id, phrase)
                ).fetchall()
                for session_id, title in titles:
                    conn.execute(
                        "UPDATE sessions SET title = ? WHERE id = ?", (title.replace(phrase, placeholder), session_id)
                    )
                    changed += 1
            if changed:
                insert_events(conn, [_event(space_id, Action.SOURCES_REDACTED, actor, {"changed": changed})])
            return changed

        changed: int = self._db.write(rewrite)
        return changed


def _event(space_id: str, action: Action, actor: str, details: dict[str, Any]) -> AuditEvent:
    return AuditEvent(id=new_id(), space_id=space_id, action=action, actor=actor, at=utcnow(), details=details)


def _turn_values(space_id: str, session_id: str, turn: Turn) -> tuple[Any, ...]:
    when = None if turn.occurred_at is None else format_time(turn.occurred_at)
    searched = turn.role in _SEARCHED
    return (session_id, turn.index, space_id, turn.role.value, turn.speaker, turn.text, when, searched, turn.text)
