"""Erasure is complete: after forget / erase_space the text is gone from every way of finding it."""

from __future__ import annotations

from pathlib import Path

from forethought import Forethought, NotFound, Status
from forethought.embed.hashing import HashingEmbedder
from forethought.recall.query import analyze
from forethought.store.base import RecordFilter

CANARY = "Quixotic-Walrus-8841 is the vault passphrase hint"


def _assert_gone(memory: Forethought, space: str, record_id: str, db: Path) -> None:
    everything = list(Status)
    # by keyword (through recall and straight at the index)
    assert all(
        CANARY not in h.record.statement
        for h in memory.recall(memory.scope("generic", space), CANARY, statuses=everything).hits
    )
    sid = memory.space(memory.scope("generic", space)).id
    assert memory.store.search.keyword(sid, analyze(CANARY).keywords, RecordFilter(statuses=()), 50) == []
    # by vector: the exact embedding of the erased text finds nothing of it
    vector = memory.embedder.embed_one(CANARY) if memory.embedder else None
    assert vector is not None
    near = memory.store.search.vector(sid, vector, RecordFilter(statuses=()), 50)
    assert record_id not in {n.record_id for n in near}
    # by id
    try:
        memory.get(memory.scope("generic", space), record_id)
        raise AssertionError("the erased record is still readable by id")
    except NotFound:
        pass
    # and not a byte of it in the database files (FTS segments, free pages, WAL)
    for path in db.parent.glob(db.name + "*"):
        assert b"Walrus" not in path.read_bytes(), f"erased text found in {path.name}"


def test_forget_removes_every_version_from_every_index(db_path: Path) -> None:
    with Forethought.open(db_path, embedder=HashingEmbedder()) as memory:
        memory.retain(memory.scope("generic", "ana"), "An unrelated fact that stays.")
        v1 = memory.retain(memory.scope("generic", "ana"), CANARY, kind="note", tags=["secret"]).record
        v2 = memory.edit(memory.scope("generic", "ana"), v1.id, CANARY + " (corrected)")
        assert memory.forget(memory.scope("generic", "ana"), v2.handle) == 2
        _assert_gone(memory, "ana", v1.id, db_path)
        _assert_gone(memory, "ana", v2.id, db_path)
        assert len(memory.list_records(memory.scope("generic", "ana"))) == 1
        assert all(
            e.record_id not in {v1.id, v2.id}
            for e in memory.store.audit.events(memory.space(memory.scope("generic", "ana")).id)
        )


def test_erase_space_removes_everything_of_that_space_only(db_path: Path) -> None:
    with Forethought.open(db_path, embedder=HashingEmbedder()) as memory:
        keep = memory.retain(memory.scope("generic", "ben"), "Ben's fact stays.").record
        gone = memory.retain(memory.scope("generic", "ana"), CANARY).record
        memory.retain(memory.scope("generic", "ana"), "Another fact of Ana.")
        assert memory.erase_space(memory.scope("generic", "ana")) == 2
        _assert_gone(memory, "ana", gone.id, db_path)
        assert memory.get(memory.scope("generic", "ben"), keep.id).statement == "Ben's fact stays."


def test_erasure_is_visible_to_another_process_view_of_the_file(db_path: Path) -> None:
    with (
        Forethought.open(db_path, embedder=HashingEmbedder()) as writer,
        Forethought.open(db_path, embedder=HashingEmbedder()) as reader,
    ):
        record = writer.retain(writer.scope("generic", "ana"), CANARY).record
        assert [h.record.id for h in reader.recall(reader.scope("generic", "ana"), CANARY).hits] == [
            record.id
        ]  # reader caches vectors
        writer.forget(writer.scope("generic", "ana"), record.id)
        assert reader.recall(reader.scope("generic", "ana"), CANARY).hits == []
        sid = reader.space(reader.scope("generic", "ana")).id
        vector = HashingEmbedder().embed_one(CANARY)
        assert reader.store.search.vector(sid, vector, RecordFilter(statuses=()), 10) == []
