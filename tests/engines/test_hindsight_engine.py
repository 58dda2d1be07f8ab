"""The Hindsight engine over the shipped fake (every store backend): sync through the store's
queue, tag filters, and the store-side check that drops — and counts — what it must not return."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from forethought import Forethought, Status
from forethought.embed.hashing import HashingEmbedder
from forethought.engines.hindsight import FakeHindsight, HindsightEngine
from forethought.engines.hindsight.documents import space_tag
from forethought.engines.hindsight.fake import StoredDocument


@pytest.fixture(params=["sqlite", "postgresql"])
def setup(request: pytest.FixtureRequest, db_path: Path) -> Iterator[tuple[Forethought, FakeHindsight]]:
    target = db_path if request.param == "sqlite" else request.getfixturevalue("postgres_dsn")
    fake = FakeHindsight()
    engine = HindsightEngine(fake, max_backoff_s=0)  # a failed job is due again at once
    with Forethought.open(target, embedder=HashingEmbedder(), engine=engine) as memory:
        yield memory, fake


def test_retain_supersede_retract_and_forget_reach_the_index_through_the_queue(
    setup: tuple[Forethought, FakeHindsight],
) -> None:
    memory, fake = setup
    scope = memory.scope("generic", "ana")
    first = memory.retain(scope, "The ledger runs on Postgres.", kind="decision", tags=("db",)).record
    assert memory.store.index_sync.pending() == 1 and fake.docs == {}  # queued with the record, sent later
    assert memory.sync_index().done == 1
    doc = fake.docs[first.id]
    assert doc.text == first.statement
    assert doc.tags == {space_tag(first.space_id), "kind:decision", "status:active", "tag:db"}
    newer = memory.supersede(scope, first.id, "The ledger runs on CockroachDB.")
    memory.sync_index()
    assert "status:superseded" in fake.docs[first.id].tags and "status:active" in fake.docs[newer.id].tags
    memory.retract(scope, newer.id, why="not decided after all")
    memory.sync_index()
    assert "status:retracted" in fake.docs[newer.id].tags
    memory.forget(scope, first.id)
    report = memory.sync_index()
    assert first.id not in fake.docs and report.pending == 0
    assert memory.recall(scope, "ledger").hits == []  # nothing current is left


def test_recall_filters_by_space_and_status_and_reads_its_own_writes(setup: tuple[Forethought, FakeHindsight]) -> None:
    memory, fake = setup
    ana, ben = memory.scope("generic", "ana"), memory.scope("generic", "ben")
    mine = memory.retain(ana, "Ana deploys with Kubernetes canary 4471.").record
    memory.retain(ben, "Ben deploys with Kubernetes canary 9902.")
    result = memory.recall(ana, "deploys with Kubernetes")  # syncs what was queued first
    assert [h.record.id for h in result.hits] == [mine.id]
    assert result.engine == "hindsight" and result.dropped == 0 and "hindsight" in result.hits[0].why
    assert memory.recall(ana, "???").hits == []  # no word to search for: nothing asked of the index
    assert fake.calls.count("recall") == 1


def test_results_the_store_does_not_admit_are_dropped_and_counted(setup: tuple[Forethought, FakeHindsight]) -> None:
    memory, fake = setup
    ana, ben = memory.scope("generic", "ana"), memory.scope("generic", "ben")
    mine = memory.retain(ana, "Rollouts go through the canary gate.").record
    retired = memory.retain(ana, "Rollouts skip the canary gate.").record
    memory.retain(ben, "Ben's rollouts use the canary gate 7713.")
    memory.sync_index()
    memory.retract(ana, retired.id, why="wrong")  # queued, not synced: the index still says active
    engine = memory.engine
    assert isinstance(engine, HindsightEngine)
    engine.sync_on_recall = False
    fake.ignore_tags = True  # a broken index that returns every space's documents
    result = memory.recall(ana, "rollouts canary gate")
    assert [h.record.id for h in result.hits] == [mine.id]
    assert result.dropped == 2 and engine.dropped == 2  # ben's record and the retracted one
    assert memory.store.counters.foreign_rows_dropped >= 1


def test_a_failing_index_leaves_jobs_queued_with_backoff_and_recall_falls_back(
    setup: tuple[Forethought, FakeHindsight],
) -> None:
    memory, fake = setup
    scope = memory.scope("generic", "ana")
    memory.sync_index()  # the bank is made
    record = memory.retain(scope, "Payments retry three times.").record
    fake.down = True
    report = memory.sync_index()
    assert (report.done, report.failed, report.pending) == (0, 1, 1)
    result = memory.recall(scope, "payments retry")
    assert [h.record.id for h in result.hits] == [record.id]  # the store's own indexes answered
    assert result.engine == "builtin" and "hindsight" in result.unavailable
    [job] = memory.store.index_sync.claim(limit=10)  # due again at once: this engine's backoff is 0
    assert job.attempts == 2  # the sync above and the one before the recall
    memory.store.index_sync.retry(job, "released by the test", delay_s=0)
    fake.down = False
    assert memory.sync_index().done == 1 and record.id in fake.docs


def test_a_job_done_twice_leaves_the_same_index(setup: tuple[Forethought, FakeHindsight]) -> None:
    memory, fake = setup
    scope = memory.scope("generic", "ana")
    record = memory.retain(scope, "Logs never hold emails.").record
    memory.sync_index()
    memory.store.index_sync.queue(record.space_id, [record.id, record.id])
    memory.sync_index()
    assert list(fake.docs) == [record.id] and fake.docs[record.id].retains == 2
    assert fake.docs[record.id].tags == {space_tag(record.space_id), "kind:note", "status:active"}


def test_reconcile_repairs_lost_changes_hand_edits_and_orphans(setup: tuple[Forethought, FakeHindsight]) -> None:
    memory, fake = setup
    scope = memory.scope("generic", "ana")
    before = memory.retain(scope, "Written before the engine was attached.").record
    kept = memory.retain(scope, "Caches expire after an hour.").record
    candidate = memory.retain(scope, "A proposal nobody reviewed.", status=Status.CANDIDATE).record
    memory.sync_index()
    fake.docs[kept.id].tags = frozenset({"space:elsewhere", "status:active"})  # drifted by hand
    fake.docs.pop(before.id)  # lost
    fake.docs["01ORPHAN"] = StoredDocument("stray text", frozenset(), order=98)
    fake.docs[candidate.id] = StoredDocument(candidate.statement, frozenset(), order=99)  # e.g. an old backup
    report = memory.reconcile_index()
    assert (report.added, report.retagged, report.deleted) == (1, 1, 2)  # the orphan and the candidate
    assert set(fake.docs) == {before.id, kept.id} and candidate.id not in fake.docs
    assert memory.reconcile_index() == report.__class__(checked=report.checked)  # nothing left to fix


def test_erasing_a_space_deletes_its_documents(setup: tuple[Forethought, FakeHindsight]) -> None:
    memory, fake = setup
    ana, ben = memory.scope("generic", "ana"), memory.scope("generic", "ben")
    memory.retain(ana, "Ana's first."), memory.retain(ana, "Ana's second.")
    keep = memory.retain(ben, "Ben's.").record
    memory.sync_index()
    assert memory.erase_space(ana) == 2
    memory.sync_index()
    assert list(fake.docs) == [keep.id]


def test_closing_the_memory_closes_its_engine_then_its_store(tmp_path: Path) -> None:
    closed: list[str] = []

    class Closing(FakeHindsight):
        def close(self) -> None:
            closed.append("engine")
            raise RuntimeError("the connection was already gone")

    memory = Forethought.open(tmp_path / "c.db", embedder="hashing", engine=HindsightEngine(Closing()))
    with pytest.raises(RuntimeError):
        memory.close()
    assert closed == ["engine"]
    with pytest.raises(Exception, match="closed"):
        memory.memory.store.stats()
