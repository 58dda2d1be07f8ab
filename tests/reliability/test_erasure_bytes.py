"""Erasure leaves no byte behind: text planted in a subject's sessions, turns, titles, records,
agent replies and traces is searched for in every table (FTS shadow tables included) and in every
byte of the database, its WAL and the files beside it, after forget (with its sources redacted),
after a session is deleted, and after the whole subject is erased. Another subject's planted text
stays, so the search can see text when it is there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from forethought import Forethought
from forethought.domain import Status
from forethought.store.sqlite.driver import sqlite3


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "db"
    folder.mkdir()
    yield folder / "memory.db"


def _everywhere(db: Path, needle: str) -> list[str]:
    """Where `needle` (any case) still is: table names, then files."""
    found: list[str] = []
    lowered = needle.lower()
    conn = sqlite3.connect(db)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                if any(lowered in _text(v).lower() for v in row):
                    found.append(f"table {table}")
                    break
    finally:
        conn.close()
    for path in sorted(db.parent.rglob("*")):
        if path.is_file() and (needle.encode() in path.read_bytes() or lowered.encode() in path.read_bytes()):
            found.append(f"file {path.name}")
    return found


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def _plant(memory: Forethought, subject: str, word: str) -> None:
    """`word` inside one statement, said in a session, repeated by the assistant there, retained,
    sent again as a chat message (which titles its session) and answered."""
    scope = memory.scope("generic", subject)
    statement = f"The vault rotation codename is {word} for every quarter."
    transcript = f"user: We decided it. {statement}\nassistant: Noted: {statement}"
    memory.submit_session(scope, transcript, title="Vault talk")
    for pending in memory.inbox(scope).pending:
        memory.approve(scope, pending.id, conflict="keep_both")
    memory.retain(scope, statement, kind="note", context=f"said in the vault talk: {statement}")
    memory.turn(scope, statement)


def test_forget_with_its_sources_leaves_no_byte_of_the_text(db: Path) -> None:
    with Forethought.open(db, embedder="hashing") as memory:
        scope = memory.scope("generic", "ada")
        _plant(memory, "ada", "BLUEHERON77")
        _plant(memory, "bob", "KESTREL55")
        assert _everywhere(db, "BLUEHERON77"), "planted text must be visible before forgetting"
        planted = [r for r in memory.list_records(scope, statuses=tuple(Status)) if "BLUEHERON77" in r.statement]
        assert planted
        forgotten: set[str] = set()
        for record in planted:
            if record.lineage_id not in forgotten:
                memory.forget(scope, record.id, redact_sources=True)
                forgotten.add(record.lineage_id)
        assert _everywhere(db, "BLUEHERON77") == []
        assert _everywhere(db, "KESTREL55"), "the other subject keeps its text"


def test_a_deleted_session_leaves_no_byte_of_its_turns(db: Path) -> None:
    with Forethought.open(db, embedder="hashing") as memory:
        scope = memory.scope("generic", "ada")
        said = memory.turn(scope, "Hello there, my cat is called ZEBRAFINCH42 and she sleeps all day.")
        memory.turn(scope, "ZEBRAFINCH42 also likes boxes.", session_id=said.session_id)
        assert _everywhere(db, "ZEBRAFINCH42")
        assert memory.delete_session(scope, said.session_id) == 4  # two messages, two replies
        assert _everywhere(db, "ZEBRAFINCH42") == []
        assert memory.list_sessions(scope) == []


def test_an_erased_subject_leaves_no_byte_and_the_others_keep_theirs(db: Path) -> None:
    with Forethought.open(db, embedder="hashing") as memory:
        _plant(memory, "ada", "OSPREY31")
        _plant(memory, "bob", "KESTREL55")
        memory.erase_space(memory.scope("generic", "ada"))
        assert _everywhere(db, "OSPREY31") == []
        assert _everywhere(db, "KESTREL55")


def test_a_trace_that_used_a_forgotten_record_still_reads_without_its_words(db: Path) -> None:
    with Forethought.open(db, embedder="hashing") as memory:
        scope = memory.scope("generic", "ada")
        record = memory.retain(scope, "The vault rotation codename is HERON88 for every quarter.").record
        turn = memory.turn(scope, "What is the vault rotation codename?")
        assert any(u.id == record.id for u in memory.trace(scope, turn.trace_id).used)
        memory.forget(scope, record.id)
        used = memory.trace(scope, turn.trace_id).used
        assert [(u.id, u.reason) for u in used if u.id == record.id] == [(record.id, "[forgotten]")]
        left = _everywhere(db, "HERON88")
        assert "table traces" not in left and "table turns" in left  # the reply quoting it stays unless redacted
