"""The outbox: work owed to records already committed, done later and retried until it succeeds.

Today that is one kind of job — the vectors of a record whose embedding failed at retain time
(its statement's and its first evidence quote's) —
and the design leaves room for others (syncing a remote recall engine). Jobs carry ids, never
text; a job whose record was erased meanwhile simply disappears with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from forethought.embed.base import Embedder
from forethought.errors import BackendError
from forethought.memory.writing import first_quote, index_payload
from forethought.store.base import Job, Store
from forethought.store.types import quote_digest

__all__ = ["OutboxReport", "drain"]

MAX_BACKOFF_S = 300.0


@dataclass(frozen=True)
class OutboxReport:
    done: int
    failed: int
    pending: int


def drain(store: Store, embedder: Embedder | None, *, limit: int = 256) -> OutboxReport:
    """Do up to `limit` due jobs; a failed one becomes due again after an exponential backoff.
    Without an embedder there is nothing to do them with: none is claimed."""
    if embedder is None:
        return OutboxReport(done=0, failed=0, pending=store.outbox.pending())
    jobs = store.outbox.claim(limit=limit)
    done = failed = 0
    by_space: dict[str, list[Job]] = {}
    for job in jobs:
        by_space.setdefault(job.space_id, []).append(job)
    for space_id, group in by_space.items():
        records = {r.id: r for r in store.records.get_many(space_id, [j.record_id for j in group])}
        live = [j for j in group if j.record_id in records]
        if not live:
            continue
        quotes = [first_quote(records[j.record_id]) for j in live]
        texts = [index_payload(records[j.record_id]).embed_text for j in live] + [q for q in quotes if q is not None]
        try:
            vectors = embedder.embed(texts)
        except BackendError as exc:
            for job in live:
                store.outbox.retry(job, str(exc), delay_s=min(2.0 ** (job.attempts + 1), MAX_BACKOFF_S))
            failed += len(live)
            continue
        at = len(live)
        for job, vector, quote in zip(live, vectors, quotes, strict=False):
            evidence = None
            if quote is not None:  # the first quote's vector too, as retain would have kept it
                evidence, at = (quote_digest(quote), vectors[at]), at + 1
            store.outbox.complete_embedding(job, vector, evidence)
            done += 1
    return OutboxReport(done=done, failed=failed, pending=store.outbox.pending())
