"""Retain never loses a memory to a failing embedder: the vector is owed through the outbox."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forethought import Forethought, ModelUnavailable
from forethought.embed.base import Embedder, Vectors
from forethought.embed.hashing import HashingEmbedder
from forethought.memory.outbox import OutboxReport
from forethought.store.base import RecordFilter


class FlakyEmbedder(Embedder):
    """The hashing embedder behind a switch that makes every call fail."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder()
        self.name, self.dim = self.inner.name, self.inner.dim
        self.down = True
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls += 1
        if self.down:
            raise ModelUnavailable("the model is down (test)")
        return self.inner.embed(texts)


def test_a_failed_embedding_keeps_the_record_and_owes_the_vector(db_path: Path) -> None:
    flaky = FlakyEmbedder()
    with Forethought.open(db_path, embedder=flaky) as memory:
        record = memory.retain(
            memory.scope("generic", "ana"), "Ana prefers remote internships.", kind="preference"
        ).record
        sid = memory.space(memory.scope("generic", "ana")).id
        assert memory.get(memory.scope("generic", "ana"), record.id).statement == record.statement
        assert memory.store.outbox.pending(sid) == 1
        # keyword recall works at once; the vector is missing
        assert [h.record.id for h in memory.recall(memory.scope("generic", "ana"), "remote internships").hits] == [
            record.id
        ]
        vector = flaky.inner.embed_one(record.statement)
        assert memory.store.search.vector(sid, vector, RecordFilter(), 5) == []
        # still down: the job is retried later, never dropped
        report = memory.drain_outbox()
        assert (report.done, report.failed, report.pending) == (0, 1, 1)
        flaky.down = False
        # the failed attempt pushed the job into the future; make it due and drain
        with memory.store.raw() as conn:
            conn.execute("UPDATE outbox SET next_at = '0000-01-01T00:00:00.000000Z'")
        report = memory.drain_outbox()
        assert (report.done, report.pending) == (1, 0)
        assert [n.record_id for n in memory.store.search.vector(sid, vector, RecordFilter(), 5)] == [record.id]
        # draining again is a no-op (idempotent)
        assert memory.drain_outbox().done == 0


def test_forgetting_a_record_cancels_its_owed_work(db_path: Path) -> None:
    flaky = FlakyEmbedder()
    with Forethought.open(db_path, embedder=flaky) as memory:
        record = memory.retain(memory.scope("generic", "ana"), "Temporary fact.").record
        assert memory.store.outbox.pending() == 1
        memory.forget(memory.scope("generic", "ana"), record.id)
        assert memory.store.outbox.pending() == 0


def test_draining_without_an_embedder_claims_nothing(db_path: Path) -> None:
    with Forethought.open(db_path, embedder=FlakyEmbedder()) as memory:
        memory.retain(memory.scope("generic", "ana"), "Ana prefers remote internships.")
    with Forethought.open(db_path, embedder=None) as memory:
        assert memory.drain_outbox() == OutboxReport(done=0, failed=0, pending=1)
        assert len(memory.store.outbox.claim(limit=10)) == 1  # still due: no lease was taken
