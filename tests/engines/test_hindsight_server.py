"""The Hindsight engine against a real Hindsight server (hindsight-api-slim, pinned by `make
hindsight`), started on loopback and offline by the `hindsight_server` fixture: retain, recall,
supersede and retract retag, forget deletes, another space's record never comes back, reconcile
repairs drift. Each test has its own bank."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from forethought import Forethought
from forethought.embed.hashing import HashingEmbedder
from forethought.engines.hindsight import Document, HindsightEngine, HttpHindsight
from forethought.engines.hindsight.documents import space_tag
from tests.hindsight_server import HindsightServer


@pytest.fixture
def api(hindsight_server: HindsightServer) -> Iterator[HttpHindsight]:
    client = HttpHindsight(hindsight_server.base_url, bank=f"test-{uuid.uuid4().hex[:12]}")
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def memory(api: HttpHindsight, db_path: Path) -> Iterator[Forethought]:
    with Forethought.open(db_path, embedder=HashingEmbedder(), engine=HindsightEngine(api)) as m:
        yield m


def _tags(api: HttpHindsight) -> dict[str, frozenset[str]]:
    return {d.id: d.tags for d in api.documents(limit=100, offset=0)}


def test_records_flow_to_the_server_and_recall_stays_in_its_space(memory: Forethought, api: HttpHindsight) -> None:
    assert api.version() == "1.1.0"
    ana, ben = memory.scope("generic", "ana"), memory.scope("generic", "ben")
    first = memory.retain(ana, "The ledger service runs on Postgres with pgvector.", kind="decision").record
    other = memory.retain(ben, "The ledger service runs on Postgres in Ben's team too.").record
    assert memory.sync_index().done == 2
    assert _tags(api)[first.id] == {space_tag(first.space_id), "kind:decision", "status:active"}
    found = memory.recall(ana, "which database does the ledger service run on?")
    assert [h.record.id for h in found.hits] == [first.id]
    assert found.engine == "hindsight" and found.dropped == 0
    assert [h.record.id for h in memory.recall(ben, "ledger service Postgres").hits] == [other.id]

    newer = memory.supersede(ana, first.id, "The ledger service runs on CockroachDB now.")
    memory.sync_index()
    assert "status:superseded" in _tags(api)[first.id]
    assert [h.record.id for h in memory.recall(ana, "ledger service").hits] == [newer.id]
    memory.retract(ana, newer.id, why="not decided")
    memory.sync_index()
    assert "status:retracted" in _tags(api)[newer.id]
    assert memory.recall(ana, "ledger service").hits == []
    memory.forget(ana, first.id)
    memory.sync_index()
    assert first.id not in _tags(api) and newer.id in _tags(api)


def test_a_stale_index_is_caught_by_the_store(memory: Forethought, api: HttpHindsight) -> None:
    scope = memory.scope("generic", "ana")
    kept = memory.retain(scope, "Deploys go through the canary gate first.").record
    retired = memory.retain(scope, "Deploys skip the canary gate on Fridays.").record
    memory.sync_index()
    engine = memory.engine
    assert isinstance(engine, HindsightEngine)
    engine.sync_on_recall = False
    memory.retract(scope, retired.id, why="wrong")  # queued; the server still holds it as active
    result = memory.recall(scope, "deploys canary gate")
    assert [h.record.id for h in result.hits] == [kept.id]
    assert result.dropped == 1


def test_reconcile_repairs_drift_on_the_server(memory: Forethought, api: HttpHindsight) -> None:
    scope = memory.scope("generic", "ana")
    lost = memory.retain(scope, "Payments retry three times with backoff.").record
    drifted = memory.retain(scope, "Caches expire after one hour.").record
    memory.sync_index()
    assert api.delete(lost.id)
    assert api.retag(drifted.id, ["status:active"])
    api.retain(Document("01ORPHANDOCUMENT", "A document no record stands behind.", drifted.occurred_at, ("x",)))
    report = memory.reconcile_index()
    assert (report.checked, report.added, report.retagged, report.deleted) == (2, 1, 1, 1)
    assert set(_tags(api)) == {lost.id, drifted.id}
    assert memory.reconcile_index().added == 0
    assert [h.record.id for h in memory.recall(scope, "payments retry").hits] == [lost.id]


def test_a_bank_can_turn_graph_retrieval_off_and_recall_the_whole_bank(api: HttpHindsight) -> None:
    api.ensure_bank()
    assert api.configure({"enable_graph_retrieval": False})["enable_graph_retrieval"] is False
    when = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    api.retain(Document("D1:1", "Caroline: I went to a support group yesterday.", when, ()))
    api.retain(Document("D1:2", "Melanie: I painted a lake at sunrise.", when, ()))
    hits = api.recall("What did Melanie paint?", [], max_tokens=1024)
    assert hits and hits[0].document_id == "D1:2"
