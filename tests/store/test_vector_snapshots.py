"""Vector snapshots: a large space's graph is saved and reused, and never outlives an erasure."""

from __future__ import annotations

from pathlib import Path

from forethought import Forethought, RetainItem
from forethought.embed.hashing import HashingEmbedder
from forethought.store.base import RecordFilter
from forethought.store.sqlite import SQLiteStore
from forethought.vectors.hnsw import quantise

THRESHOLD = 50  # past this many vectors a space moves to the HNSW graph that gets snapshotted


def _open(path: Path) -> Forethought:
    return Forethought(SQLiteStore(path, hnsw_threshold=THRESHOLD), HashingEmbedder())


def _fill(memory: Forethought, n: int) -> None:
    memory.retain_many(
        memory.scope("generic", "big"),
        [
            RetainItem(f"Fact {i}: the {w} service owns queue {i * 7}.")
            for i, w in enumerate(["billing", "search", "auth", "mail"] * (n // 4))
        ],
    )


def _snapshot(path: Path, memory: Forethought) -> Path:
    return path.with_name(path.name + ".vectors") / f"{memory.space(memory.scope('generic', 'big')).id}.usearch"


def test_a_grown_space_is_snapshotted_and_the_next_process_reuses_it(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    first = _open(path)
    _fill(first, 120)
    query = HashingEmbedder().embed_one("billing service queue")
    sid = first.space(first.scope("generic", "big")).id
    before = first.store.search.vector(sid, query, RecordFilter(), 5)
    snapshot = _snapshot(path, first)
    assert snapshot.exists() and snapshot.with_suffix(".json").exists()
    first.close()
    second = _open(path)
    second.retain(second.scope("generic", "big"), "A record added after the snapshot: billing queue 99999.")
    after = second.store.search.vector(sid, query, RecordFilter(), 5)
    entry = second.store.vectors._entries[sid]  # type: ignore[attr-defined]
    assert entry.saved_size == 120 and len(entry.index) == 121  # loaded, then only the delta added
    assert {h.record_id for h in before[:3]} <= {h.record_id for h in after}
    second.close()


def test_erasing_deletes_the_snapshot_and_a_stale_one_is_never_loaded(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    memory = _open(path)
    _fill(memory, 120)
    sid = memory.space(memory.scope("generic", "big")).id
    memory.store.search.vector(sid, HashingEmbedder().embed_one("auth"), RecordFilter(), 5)
    snapshot = _snapshot(path, memory)
    assert snapshot.exists()
    victim = memory.recall(memory.scope("generic", "big"), "auth service queue", k=1).hits[0].record
    vector = HashingEmbedder().embed_one(victim.statement)
    memory.forget(memory.scope("generic", "big"), victim.id)
    assert not snapshot.exists()
    # the in-memory graph now holds a removed vector's bytes, so it is not saved again
    memory.store.search.vector(sid, vector, RecordFilter(), 5)
    assert not snapshot.exists()
    memory.close()
    reopened = _open(path)
    hits = reopened.store.search.vector(sid, vector, RecordFilter(statuses=()), 20)
    assert victim.id not in {h.record_id for h in hits}
    assert snapshot.exists()  # rebuilt from the table, without the erased vector
    raw = quantise(vector.reshape(1, -1))[0].tobytes()  # the victim's bytes as the graph would hold them
    assert raw not in snapshot.read_bytes()
    reopened.close()


def test_erase_space_removes_its_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    memory = _open(path)
    _fill(memory, 120)
    memory.store.search.vector(
        memory.space(memory.scope("generic", "big")).id, HashingEmbedder().embed_one("mail"), RecordFilter(), 5
    )
    snapshot = _snapshot(path, memory)
    assert snapshot.exists()
    memory.erase_space(memory.scope("generic", "big"))
    assert not snapshot.exists() and not snapshot.with_suffix(".json").exists()
    memory.close()
