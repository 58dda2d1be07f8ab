"""Crash safety: a server killed with SIGKILL in the middle of concurrent writes loses no write it
acknowledged, and leaves a database that is whole — SQLite's integrity and foreign-key checks,
the full-text index in step with the records, every record embedded or queued to be.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from forethought import Forethought
from forethought.store.sqlite.driver import sqlite3  # the SQLite the store itself runs on
from tests.reliability.server import ServerProcess

WRITERS = 8
KILL_AFTER = 240  # acknowledged writes before the kill; the writers are still going at full speed
URL = "/v1/apps/project/subjects/crashsite/records"


@dataclass(frozen=True)
class Ack:
    external_id: str
    id: str
    text: str


def _writer(
    base: str, key: str, n: int, acks: list[Ack], cut: list[int], lock: threading.Lock, stop: threading.Event
) -> None:
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as client:
        i = 0
        while not stop.is_set():
            external_id = f"w{n}-{i}"
            # A word no other record holds, to find this one by keyword after the restart.
            text = f"Crash probe {external_id} writes the marker zq{n}x{i}v through the ledger service."
            try:
                response = client.post(URL, json={"text": text, "external_id": external_id, "kind": "note"})
            except httpx.TransportError:  # the server is gone: this write was never acknowledged
                with lock:
                    cut.append(n)
                return
            if response.status_code == 201:
                with lock:
                    acks.append(Ack(external_id, response.json()["record"]["id"], text))
            i += 1


def _check_database(db: Path) -> None:
    conn: Any = sqlite3.connect(str(db))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        conn.execute("INSERT INTO records_fts(records_fts) VALUES ('integrity-check')")  # raises if corrupt
        unindexed = conn.execute(
            "SELECT count(*) FROM records r WHERE NOT EXISTS (SELECT 1 FROM records_fts f WHERE f.rowid = r.rowid)"
        ).fetchone()[0]
        orphaned = conn.execute(
            "SELECT count(*) FROM records_fts f WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.rowid = f.rowid)"
        ).fetchone()[0]
        unembedded = conn.execute(
            "SELECT count(*) FROM records r WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.record_rowid = r.rowid)"
            " AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.record_rowid = r.rowid)"
        ).fetchone()[0]
        assert (unindexed, orphaned, unembedded) == (0, 0, 0)
    finally:
        conn.close()


def test_no_acknowledged_write_is_lost_to_a_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with Forethought.open(db, embedder="hashing") as memory:
        _, key = memory.create_api_key("crash", name="writer")
    acks: list[Ack] = []
    cut: list[int] = []  # writers whose request was cut off by the kill
    lock = threading.Lock()
    stop = threading.Event()
    with ServerProcess(db) as server:
        threads = [
            threading.Thread(target=_writer, args=(server.url, key, n, acks, cut, lock, stop), daemon=True)
            for n in range(WRITERS)
        ]
        for thread in threads:
            thread.start()
        try:
            deadline = time.monotonic() + 60
            while len(acks) < KILL_AFTER and time.monotonic() < deadline:
                time.sleep(0.01)
            server.kill()  # mid-stream: every writer has a request in flight
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
    assert len(acks) >= KILL_AFTER, server.output()
    assert not any(thread.is_alive() for thread in threads)
    assert cut, "the kill came between requests, not in the middle of one"

    _check_database(db)  # as the crash left it (the WAL not yet checkpointed)

    with (
        ServerProcess(db) as restarted,
        httpx.Client(base_url=restarted.url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as client,
    ):
        missing = [a for a in acks if client.get(f"{URL}/{a.id}").status_code != 200]
        assert missing == []
        for ack in acks[:: max(1, len(acks) // 20)]:
            record = client.get(f"{URL}/{ack.id}").json()
            assert (record["statement"], record["external_id"]) == (ack.text, ack.external_id)
            again = client.post(URL, json={"text": ack.text, "external_id": ack.external_id, "kind": "note"})
            assert again.status_code == 200 and again.json()["record"]["id"] == ack.id  # idempotency survived
        for ack in acks[:: max(1, len(acks) // 5)]:  # the keyword index survived too
            marker = ack.text.split("marker ")[1].split()[0]
            hits = client.post(URL.removesuffix("/records") + "/recall", json={"query": marker, "k": 3}).json()["hits"]
            assert hits and hits[0]["record"]["id"] == ack.id
    _check_database(db)
