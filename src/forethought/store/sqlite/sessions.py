"""Sessions on SQLite: a row per session, a row per turn, read back in turn order; the person's and
agent's turns also go to `turns_fts`, the keyword index that past-session excerpts search."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from forethought.domain import Action, AuditEvent, Role, Session, Turn, new_id
from forethought.domain.times import format_time, utcnow
from forethought.errors import NotFound
from forethought.store.rows import session_values
from forethought.store.sql.audit import insert_events
from forethought.store.sql.sentences import forget_turn, insert_sentence_vectors, read_sentence_vectors
from forethought.store.sql.sessions import SqlSessionReads
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.erasure import purge, require_space
from forethought.store.types import SentenceVector, TurnHit

__all__ = ["SQLiteSessions"]

_INSERT_TURN = "INSERT INTO turns (session_id, idx, role, speaker, text, occurred_at) VALUES (?, ?, ?, ?, ?, ?)"
_INDEX_TURN = "INSERT INTO turns_fts (body, space, session, turn) VALUES (?, ?, ?, ?)"
_SEARCHED = (Role.USER, Role.AGENT)  # what people and agents said; tool output and system text are not


class SQLiteSessions(SqlSessionReads):
    _db: Database

    def __init__(self, db: Database, *, secure_fts_delete: bool = False) -> None:
        self._db = db
        self._secure_fts_delete = secure_fts_delete

    def add(self, session: Session, events: Sequence[AuditEvent] = (), vectors: Sequence[SentenceVector] = ()) -> None:
        def write(conn: Any) -> None:
            require_space(conn, session.space_id)
            conn.execute(
                "INSERT INTO sessions (id, space_id, title, source, created_at, metadata) VALUES (?, ?, ?, ?, ?, ?)",
                session_values(session),
            )
            conn.executemany(_INSERT_TURN, [_turn_values(session.id, t) for t in session.turns])
            _index(conn, session.space_id, session.id, session.turns)
            insert_sentence_vectors(conn, session.space_id, session.id, [t.index for t in session.turns], vectors)
            insert_events(conn, events)

        self._db.write(write)

    def append_turns(
        self, space_id: str, session_id: str, turns: Sequence[Turn], vectors: Sequence[SentenceVector] = ()
    ) -> None:
        def write(conn: Any) -> None:
            row = conn.execute("SELECT space_id FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None or not self._db.own(space_id, row[0]):
                raise NotFound(f"no session {session_id!r} in this space")
            conn.executemany(_INSERT_TURN, [_turn_values(session_id, t) for t in turns])
            _index(conn, row[0], session_id, turns)
            insert_sentence_vectors(conn, row[0], session_id, [t.index for t in turns], vectors)

        self._db.write(write)

    def known_refs(self, space_id: str, refs: Sequence[str]) -> builtins.set[str]:
        found: builtins.set[str] = set()
        wanted = list(dict.fromkeys(refs))
        for start in range(0, len(wanted), 500):  # SQLite's bound on parameters, with room to spare
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self._db.fetch(
                f"SELECT json_extract(metadata, '$.ref') FROM sessions WHERE space_id = ? "
                f"AND json_extract(metadata, '$.ref') IN ({marks})",
                [space_id, *chunk],
            )
            found.update(r[0] for r in rows)
        return found

    def sentence_vectors(
        self, space_id: str, session_ids: Sequence[str], model: str
    ) -> builtins.dict[tuple[str, int, int], SentenceVector]:
        return read_sentence_vectors(self._db, space_id, session_ids, model)

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

    # -- erasure ---------------------------------------------------------------------------
    def delete(self, space_id: str, session_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            row = conn.execute("SELECT space_id FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None or not self._db.own(space_id, row[0]):
                raise NotFound(f"no session {session_id!r} in this space")
            turns = conn.execute("SELECT COUNT(*) FROM turns WHERE session_id = ?", (session_id,)).fetchone()[0]
            conn.execute("DELETE FROM turns_fts WHERE session = ? AND space = ?", (session_id, space_id))
            conn.execute("DELETE FROM traces WHERE session_id = ? AND space_id = ?", (session_id, space_id))
            conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))  # its turns go with it
            details = {"session": session_id, "turns": int(turns)}
            insert_events(conn, [_event(space_id, Action.SESSION_DELETED, actor, details)])
            return int(turns)

        removed: int = self._db.write(erase)
        purge(self._db, secure_fts_delete=self._secure_fts_delete)
        return removed

    def redact(self, space_id: str, phrases: Sequence[str], placeholder: str, *, actor: str) -> int:
        wanted = sorted({p for p in phrases if p and p.strip()}, key=len, reverse=True)  # longest first
        if not wanted:
            return 0

        def rewrite(conn: Any) -> int:
            changed = 0
            for phrase in wanted:
                rows = conn.execute(
                    "SELECT t.session_id, t.idx, t.role, t.text FROM turns t JOIN sessions s ON s.id = t.session_id"
                    " WHERE s.space_id = ? AND instr(t.text, ?) > 0",
                    (space_id, phrase),
                ).fetchall()
                for session_id, idx, role, text in rows:
                    clean = text.replace(phrase, placeholder)
                    conn.execute("UPDATE turns SET text = ? WHERE session_id = ? AND idx = ?", (clean, session_id, idx))
                    conn.execute("DELETE FROM turns_fts WHERE session = ? AND turn = ?", (session_id, idx))
                    forget_turn(conn, session_id, idx)
                    if Role(role) in _SEARCHED:
                        conn.execute(_INDEX_TURN, (clean, space_id, session_id, idx))
                    changed += 1
                titles = conn.execute(
                    "SELECT id, title FROM sessions WHERE space_id = ? AND instr(title, ?) > 0", (space_id, phrase)
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
        if changed:
            purge(self._db, secure_fts_delete=self._secure_fts_delete)
        return changed


def _event(space_id: str, action: Action, actor: str, details: dict[str, Any]) -> AuditEvent:
    return AuditEvent(id=new_id(), space_id=space_id, action=action, actor=actor, at=utcnow(), details=details)


def _index(conn: Any, space_id: str, session_id: str, turns: Sequence[Turn]) -> None:
    conn.executemany(_INDEX_TURN, [(t.text, space_id, session_id, t.index) for t in turns if t.role in _SEARCHED])


def _turn_values(session_id: str, turn: Turn) -> tuple[Any, ...]:
    when = None if turn.occurred_at is None else format_time(turn.occurred_at)
    return (session_id, turn.index, turn.role.value, turn.speaker, turn.text, when)
