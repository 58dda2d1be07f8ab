"""The index-sync queue (`store.index_sync`) on every backend: queued in the writing transaction
once enabled, surviving the record it names, claimed under a lease, done by generation."""

from __future__ import annotations

from forethought import Status
from forethought.domain import transition
from forethought.domain.times import utcnow
from forethought.store.base import ChangeSet, Store
from tests.store.test_contract import insert, make, space


def _queued(store: Store) -> dict[str, int]:
    """record id -> generation of every job, claimed at once (and so leased)."""
    return {job.record_id: job.generation for job in store.index_sync.claim(limit=100)}


def test_nothing_is_queued_until_enabled(store: Store) -> None:
    s = space(store)
    insert(store, make(s, "Written before the index existed."))
    assert not store.index_sync.enabled()
    assert store.index_sync.pending() == 0
    store.index_sync.enable()
    store.index_sync.enable()  # idempotent
    assert store.index_sync.enabled()
    assert store.index_sync.pending() == 0  # the earlier record is reconcile's to find


def test_inserts_transitions_forgetting_and_erasure_queue_the_ids_they_touch(store: Store) -> None:
    store.index_sync.enable()
    a, b = space(store, "ana"), space(store, "ben")
    first, second = make(a, "First."), make(a, "Second.")
    insert(store, first, second)
    assert _queued(store) == {first.id: 1, second.id: 1}
    for job in store.index_sync.claim(limit=100) + store.index_sync.claim(limit=100):
        store.index_sync.done(job)  # nothing due: both are leased by the claim above
    retracted, event = transition(first, Status.RETRACTED, actor="t", at=utcnow())
    store.records.apply(ChangeSet(a, transitions=[(first, retracted)], events=[event]))
    assert store.index_sync.pending(a) == 2 and store.index_sync.pending(b) == 0
    store.records.forget(a, second.lineage_id, actor="t")
    ben = make(b, "Ben's fact.")
    insert(store, ben)
    store.spaces.erase(b, actor="t")
    # the jobs outlive the forgotten record and the erased space: they carry the deletes
    assert store.index_sync.pending(a) == 2 and store.index_sync.pending(b) == 1


def test_a_change_during_a_lease_is_a_new_generation_that_done_does_not_drop(store: Store) -> None:
    store.index_sync.enable()
    s = space(store)
    r = make(s, "Leased while it changes.")
    insert(store, r)
    [job] = store.index_sync.claim(limit=10, lease_s=600)
    retracted, event = transition(r, Status.RETRACTED, actor="t", at=utcnow())
    store.records.apply(ChangeSet(s, transitions=[(r, retracted)], events=[event]))
    assert store.index_sync.claim(limit=10) == []  # the lease still holds the record
    assert store.index_sync.done(job) is False  # an older state reached the index: released, due now
    [again] = store.index_sync.claim(limit=10)
    assert again.record_id == r.id and again.generation == job.generation + 1
    assert store.index_sync.done(again) is True
    assert store.index_sync.pending() == 0


def test_retry_counts_attempts_and_waits(store: Store) -> None:
    s = space(store)
    store.index_sync.queue(s, ["01JOB", "01JOB", "01OTHER"])  # queue works without enable; duplicates fold
    jobs = store.index_sync.claim(limit=10, lease_s=0)
    assert sorted(j.record_id for j in jobs) == ["01JOB", "01OTHER"]
    store.index_sync.retry(jobs[0], "the engine said 503", delay_s=3600)
    later = store.index_sync.claim(limit=10, lease_s=0)
    assert [j.record_id for j in later] == [jobs[1].record_id]
    assert store.index_sync.pending(s) == 2
    store.index_sync.retry(jobs[0], "again", delay_s=0)
    [retried] = [j for j in store.index_sync.claim(limit=10) if j.record_id == jobs[0].record_id]
    assert retried.attempts == 2
