"""Sentence vectors kept with stored turns (`SessionStore.add` / `append_turns` /
`sentence_vectors`), on every backend: read back by session within the space and model, and gone
with the turn's text — deleted session, erased space, redacted turn."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from forethought.domain import Role, Session, SpaceKey, Turn, new_id
from forethought.domain.times import utcnow
from forethought.store.base import Store
from forethought.store.sqlite import SQLiteStore
from forethought.store.types import SentenceVector, quote_digest

RULE = "Invoices are rounded per line, never on the total."
DIM = 8


def _space(store: Store, name: str) -> str:
    return store.spaces.resolve(SpaceKey(workspace="w", subject_type="project", subject_id=name)).id


def _vector(seed: int) -> np.ndarray:
    row = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return row / np.linalg.norm(row)


def _session(space_id: str, *texts: str) -> Session:
    turns = tuple(Turn(index=i, role=Role.USER if i % 2 == 0 else Role.AGENT, text=t) for i, t in enumerate(texts))
    return Session(id=new_id(), space_id=space_id, title="t", source="import", created_at=utcnow(), turns=turns)


def _sv(turn: int, start: int, text: str, seed: int, model: str = "m") -> SentenceVector:
    return SentenceVector(turn, start, model, quote_digest(text), _vector(seed))


def _add(store: Store, space_id: str) -> Session:
    session = _session(space_id, f"So, to be clear. {RULE}", "Understood, per line it is.")
    rule = replace(_sv(0, 18, RULE, 1), passage_digest=quote_digest(session.turns[0].text), passage_vector=_vector(9))
    store.sessions.add(session, vectors=[rule, _sv(1, 0, "Understood, per line it is.", 2)])
    return session


def test_vectors_come_back_by_session_turn_and_start(store: Store) -> None:
    s = _space(store, "billing")
    session = _add(store, s)
    kept = store.sessions.sentence_vectors(s, [session.id, "unknown"], "m")
    assert set(kept) == {(session.id, 0, 18), (session.id, 1, 0)}
    first = kept[(session.id, 0, 18)]
    assert first.digest == quote_digest(RULE) and first.model == "m"
    np.testing.assert_allclose(first.vector, _vector(1), atol=2e-3)  # float16 on disk
    assert first.passage_digest == quote_digest(session.turns[0].text) and first.passage_vector is not None
    np.testing.assert_allclose(first.passage_vector, _vector(9), atol=2e-3)
    reply = kept[(session.id, 1, 0)]
    assert reply.passage_vector is None and reply.passage_digest is None
    assert store.sessions.sentence_vectors(s, [session.id], "another-model") == {}


def test_appended_turns_bring_their_vectors_and_no_other_turns(store: Store) -> None:
    s = _space(store, "billing")
    session = _add(store, s)
    store.sessions.append_turns(s, session.id, [Turn(index=2, role=Role.USER, text=RULE)], [_sv(2, 0, RULE, 3)])
    assert (session.id, 2, 0) in store.sessions.sentence_vectors(s, [session.id], "m")
    with pytest.raises(ValueError, match="turn 0"):  # a vector for a turn this write does not add
        store.sessions.append_turns(s, session.id, [Turn(index=3, role=Role.USER, text="x")], [_sv(0, 0, "x", 4)])
    assert len(store.sessions.get(s, session.id).turns) == 3  # and the write was refused whole


def test_vectors_never_cross_spaces(store: Store) -> None:
    a, b = _space(store, "a"), _space(store, "b")
    session = _add(store, a)
    assert store.sessions.sentence_vectors(b, [session.id], "m") == {}


def test_a_deleted_session_or_an_erased_space_takes_its_vectors(store: Store) -> None:
    a, b = _space(store, "a"), _space(store, "b")
    gone, kept = _add(store, a), _add(store, b)
    store.sessions.delete(a, gone.id, actor="t")
    assert store.sessions.sentence_vectors(a, [gone.id], "m") == {}
    store.spaces.erase(b, actor="t")
    assert store.sessions.sentence_vectors(b, [kept.id], "m") == {}


def test_a_redacted_turn_loses_its_vectors_and_the_others_keep_theirs(store: Store) -> None:
    s = _space(store, "billing")
    session = _add(store, s)
    assert store.sessions.redact(s, ["per line, never"], "[removed]", actor="t") == 1
    left = store.sessions.sentence_vectors(s, [session.id], "m")
    assert set(left) == {(session.id, 1, 0)}


def test_no_vector_row_is_left_on_disk_after_erasure(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    try:
        s = _space(store, "billing")
        session = _add(store, s)
        store.sessions.redact(s, ["per line, never"], "[removed]", actor="t")
        with sqlite3.connect(tmp_path / "s.db") as conn:
            assert conn.execute("SELECT COUNT(*) FROM sentence_vectors").fetchone()[0] == 1
        store.sessions.delete(s, session.id, actor="t")
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "s.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM sentence_vectors").fetchone()[0] == 0
