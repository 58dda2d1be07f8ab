"""`serve --workers 3` on PostgreSQL survives losing a worker mid-load: a worker process (not the
supervisor) is SIGKILLed while a client writes records over HTTP; the client retries what the kill
cut off, and afterwards every write that got a 2xx is readable and the server still answers."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import httpx

from forethought import Forethought
from tests.reliability.server import ServerProcess

URL = "/v1/apps/generic/subjects/killsite/records"
WRITES = 120
KILL_AT = 40  # acknowledged writes before one worker is killed


def test_killing_one_worker_loses_no_acknowledged_write(tmp_path: Path, postgres_dsn: str) -> None:
    with Forethought.open(postgres_dsn, embedder="hashing") as memory:
        _, key = memory.create_api_key("kill", name="writer")
    server = ServerProcess(tmp_path / "log-anchor.db", args=("--workers", "3"))
    server.env["FORETHOUGHT_DB"] = postgres_dsn
    acked: dict[str, str] = {}  # external id -> record id, for every 2xx
    refused: list[int] = []  # statuses other than 2xx (none expected: a retry after a cut write is a 200)
    retried: list[str] = []
    halfway = threading.Event()

    def write() -> None:
        fresh = httpx.Limits(max_keepalive_connections=0)  # a new connection each time: any worker answers
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}, limits=fresh) as client:
            for i in range(WRITES):
                body = {"text": f"Kill probe {i} names the marker kq{i}z.", "external_id": f"k{i}", "kind": "note"}
                for attempt in range(100):
                    try:
                        response = client.post(URL, json=body, timeout=30)
                        break
                    except httpx.TransportError:  # cut off by the kill: not acknowledged, so sent again
                        retried.append(body["external_id"])
                        time.sleep(min(1.0, 0.05 * (attempt + 1)))  # a client's backoff, not a timed assertion
                else:
                    raise AssertionError(f"write {i} never got an answer")
                if response.is_success:
                    acked[body["external_id"]] = response.json()["record"]["id"]
                else:
                    refused.append(response.status_code)
                if len(acked) == KILL_AT:
                    halfway.set()

    with server:
        assert server.process is not None
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        assert halfway.wait(timeout=120), server.output()
        workers = server.workers()
        assert len(workers) == 3, workers
        victim = workers[-1]
        os.kill(victim, signal.SIGKILL)
        writer.join(timeout=300)
        assert not writer.is_alive()
        assert victim not in server.workers()  # it is gone (the supervisor may start another)
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as client:
            assert client.get("/health").status_code == 200
            missing = [e for e, rid in acked.items() if client.get(f"{URL}/{rid}").status_code != 200]
    assert refused == [] and len(acked) == WRITES, (refused, server.output())
    assert missing == []
    with Forethought.open(postgres_dsn, embedder="hashing") as memory:  # and in the database itself
        scope = memory.scope("generic", "killsite", workspace="kill")
        stored = {r.external_id: r.id for r in memory.list_records(scope, statuses=(), limit=1000)}
    assert all(stored.get(e) == rid for e, rid in acked.items())
