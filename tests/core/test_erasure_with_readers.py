"""Erasure while another connection reads: SQLite cannot finish the checkpoint, so the forgotten
text would stay on disk (in the WAL, or the main file's pages). The purge retries, then says so (`erasure_pending`, the
API's `purged: false`, the CLI's warning) instead of claiming success, and the bytes go at the
first write after the reader lets go — in this process or in the next one that opens the file."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forethought import Forethought
from forethought.embed.hashing import HashingEmbedder
from forethought.server import ServerSettings, create_app
from forethought.store.sqlite import connection
from forethought.store.sqlite.driver import connect
from tests.cli.conftest import Cli


def _on_disk(db: Path, needle: str) -> list[str]:
    """The database files (main, WAL, shared memory) whose raw bytes hold `needle`."""
    data = needle.encode("utf-8")
    return [p.name for p in sorted(db.parent.glob(db.name + "*")) if p.is_file() and data in p.read_bytes()]


@contextmanager
def reading(db: Path) -> Iterator[None]:
    """A second connection, in another thread, holding a read transaction open until the block ends."""
    started, release = threading.Event(), threading.Event()
    failure: list[BaseException] = []

    def hold() -> None:
        conn = connect(db)
        try:
            conn.execute("BEGIN")
            conn.execute("SELECT COUNT(*) FROM records").fetchone()  # the snapshot is taken here
            started.set()
            release.wait(60)
            conn.execute("COMMIT")
        except BaseException as exc:  # reported to the test below
            failure.append(exc)
            started.set()
        finally:
            conn.close()

    thread = threading.Thread(target=hold, name="reader")
    thread.start()
    started.wait(30)
    try:
        yield
    finally:
        release.set()
        thread.join(30)
    assert not failure, failure


def test_forget_under_a_reader_reports_the_purge_incomplete_then_finishes_it(db_path: Path) -> None:
    planted = "Marmalade-Otter-5521 unlocks the staging vault"
    with Forethought.open(db_path, embedder=HashingEmbedder()) as memory:
        notes = memory.scope("generic", "ana")
        memory.retain(notes, "A fact that stays.")
        record = memory.retain(notes, planted).record
        with reading(db_path):
            assert memory.forget(notes, record.id) == 1
            assert memory.store.erasure_pending()  # not claimed done while the reader holds the old pages
            assert memory.stats()["erasure_pending"] is True
            assert _on_disk(db_path, "Marmalade-Otter"), "the reader should have kept the text on disk"
        memory.retain(notes, "A later write, after the reader let go.")  # retries the checkpoint
        assert not memory.store.erasure_pending()
        assert _on_disk(db_path, "Marmalade-Otter") == []


def test_a_pending_erasure_is_finished_by_the_next_process_to_open_the_file(db_path: Path) -> None:
    planted = "Quokka-Lantern-3307 is the backup passphrase"
    with Forethought.open(db_path, embedder=HashingEmbedder()) as memory:
        notes = memory.scope("generic", "ana")
        record = memory.retain(notes, planted).record
        with reading(db_path):
            memory.forget(notes, record.id)
            assert memory.store.erasure_pending()
            memory.close()  # this process goes away before the reader lets go
    with Forethought.open(db_path, embedder=HashingEmbedder()) as later:
        assert later.store.erasure_pending()  # the database remembers
        assert later.store.finish_erasure()
        assert not later.store.erasure_pending()
    assert _on_disk(db_path, "Quokka-Lantern") == []


def test_the_api_says_purged_false_while_a_reader_holds_the_bytes(sqlite_memory: Forethought, db_path: Path) -> None:
    memory = sqlite_memory  # a reader holding bytes in the WAL is SQLite's case
    _, key = memory.create_api_key("acme", role="admin")
    client = TestClient(create_app(memory, ServerSettings(rate_per_second=0)), raise_server_exceptions=False)
    headers = {"Authorization": f"Bearer {key}"}
    url = "/v1/apps/generic/subjects/ana/records"
    made = client.post(url, headers=headers, json={"text": "Pelican-Ribbon-9902 is the door code."}).json()
    with reading(db_path):
        done = client.delete(f"{url}/{made['record']['id']}", headers=headers)
        assert done.status_code == 200 and done.json() == {"forgotten": 1, "purged": False}
        assert client.get("/ready").json()["store"]["erasure_pending"] is True
    again = client.post(url, headers=headers, json={"text": "Another fact."}).json()
    assert client.delete(f"{url}/{again['record']['id']}", headers=headers).json() == {"forgotten": 1, "purged": True}
    assert _on_disk(db_path, "Pelican-Ribbon") == []


def test_the_cli_warns_when_a_reader_keeps_the_forgotten_text_on_disk(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "cli.db")
    made = cli("retain", "--json", "--space", "ana", "--kind", "note", "Heron-Tangle-4410 opens the safe.")
    assert made.code == 0, made.err
    record_id = made.json()["id"]
    with reading(cli.db):
        forgot = cli("forget", "--json", "--space", "ana", record_id)
    assert forgot.code == 0 and forgot.json() == {"forgotten": 1, "purged": False}, forgot.out + forgot.err
    assert cli("retain", "--space", "ana", "--kind", "note", "A later fact.").code == 0  # the next process finishes it
    assert _on_disk(cli.db, "Heron-Tangle") == []


_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=10)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(_WORDS, min_size=3, max_size=6, unique=True), erase_space=st.booleans())
def test_any_planted_text_is_gone_from_disk_once_readers_let_go(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, words: list[str], erase_space: bool
) -> None:
    monkeypatch.setattr(connection, "CHECKPOINT_ATTEMPTS", 2)  # fewer retries: the reader never lets go in time
    db = tmp_path_factory.mktemp("erase") / "memory.db"
    planted = "Zq" + "-".join(words) + "-canary"
    with Forethought.open(db, embedder=HashingEmbedder()) as memory:
        scope = memory.scope("generic", "subject")
        record = memory.retain(scope, f"The code word is {planted}.").record
        with reading(db):
            if erase_space:
                memory.erase_space(scope)
            else:
                memory.forget(scope, record.id)
            assert memory.store.erasure_pending()
        memory.retain(memory.scope("generic", "other"), "Unrelated.")
        assert not memory.store.erasure_pending()
    assert _on_disk(db, planted) == []
