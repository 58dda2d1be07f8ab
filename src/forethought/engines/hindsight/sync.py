"""Bringing Hindsight up to date: one queued record at a time, to the state the store holds now.

A job names a record; the worker reads it from the store and makes its document match — retain
(replace) a current one, retag a retired one (retained with its status when it never reached the
index), delete the document of a record that is gone or never meant to be indexed. So a job done
twice, or jobs done out of order, leave the same index. A failure leaves the job queued, due again
after an exponential backoff; after a server failure the rest of the pass waits too, instead of
timing out once per job.
"""

from __future__ import annotations

import logging

from forethought.domain import Status
from forethought.engines.hindsight.base import HindsightAPI, HindsightUnavailable
from forethought.engines.hindsight.documents import INDEXED, document_for, tags_for
from forethought.recall.base import SyncReport
from forethought.store.base import Store, SyncJob

__all__ = ["MAX_BACKOFF_S", "backoff", "drain", "sync_record"]

MAX_BACKOFF_S = 300.0
log = logging.getLogger(__name__)


def sync_record(api: HindsightAPI, store: Store, space_id: str, record_id: str) -> str:
    """Make the document of one record match the store; returns what was done."""
    found = store.records.get_many(space_id, [record_id])
    record = found[0] if found else None
    if record is None or record.status not in INDEXED:
        api.delete(record_id)  # False: there was none, which is what is wanted
        return "deleted"
    if record.status is Status.ACTIVE:
        api.retain(document_for(record))
        return "retained"
    if api.retag(record.id, tags_for(record)):
        return "retagged"
    api.retain(document_for(record))
    return "retained"


def backoff(job: SyncJob, ceiling: float = MAX_BACKOFF_S) -> float:
    """Seconds until a failed job is due again: 2, 4, 8, ... up to `ceiling`."""
    return min(2.0 ** (job.attempts + 1), ceiling)


def drain(store: Store, api: HindsightAPI, *, limit: int = 256, max_backoff_s: float = MAX_BACKOFF_S) -> SyncReport:
    """Do up to `limit` due jobs of the store's index-sync queue."""
    jobs = store.index_sync.claim(limit=limit)
    done = failed = 0
    error: str | None = None
    for job in jobs:
        if error is None:
            try:
                sync_record(api, store, job.space_id, job.record_id)
            except HindsightUnavailable as exc:
                error = str(exc)
                log.warning("index sync failed; %d job(s) wait: %s", len(jobs) - done, error)
        if error is not None:
            store.index_sync.retry(job, error, delay_s=backoff(job, max_backoff_s))
            failed += 1
            continue
        store.index_sync.done(job)
        done += 1
    return SyncReport(done=done, failed=failed, pending=store.index_sync.pending())
