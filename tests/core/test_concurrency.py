"""Several processes writing one file: no lost writes, no 'database is locked' reaching a caller."""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

from forethought import Forethought, Status
from forethought.embed.hashing import HashingEmbedder

WRITERS = 4
PER_WRITER = 60


def _writer(path: str, worker: int, queue: mp.Queue) -> None:  # type: ignore[type-arg]
    try:
        with Forethought.open(path, embedder=HashingEmbedder()) as memory:
            for i in range(PER_WRITER):
                memory.retain(
                    memory.scope("generic", "shared"), f"worker {worker} fact {i}", external_id=f"{worker}-{i}"
                )
                if i % 10 == 0:  # the same external id from every worker: exactly one record results
                    memory.retain(memory.scope("generic", "shared"), f"common fact {i}", external_id=f"common-{i}")
                if i % 7 == 0:
                    memory.recall(memory.scope("generic", "shared"), f"worker {worker} fact")
        queue.put((worker, None))
    except Exception as exc:
        queue.put((worker, f"{type(exc).__name__}: {exc}"))


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    Forethought.open(path, embedder=HashingEmbedder()).close()  # create the schema once
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(path, w, queue)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert [error for _, error in results if error] == []
    with Forethought.open(path, embedder=HashingEmbedder()) as memory:
        records = memory.list_records(memory.scope("generic", "shared"), statuses=list(Status), limit=10_000)
        external = sorted(r.external_id or "" for r in records)
        expected = sorted(
            [f"{w}-{i}" for w in range(WRITERS) for i in range(PER_WRITER)]
            + [f"common-{i}" for i in range(0, PER_WRITER, 10)]
        )
        assert external == expected
        # every process's writes are searchable from here
        assert len(memory.recall(memory.scope("generic", "shared"), "worker 3 fact", k=200).hits) >= PER_WRITER // 2
