"""Reconciling the store with Hindsight: every record the store would index against every
document of the bank, fixing what drifted (a lost job, a document changed or added by hand, an
index restored from an old backup). The store is the truth; the index is made to match it."""

from __future__ import annotations

from forethought.engines.hindsight.base import DocumentInfo, HindsightAPI
from forethought.engines.hindsight.documents import INDEXED, content_hash, document_for, tags_for
from forethought.recall.base import ReconcileReport
from forethought.store.base import RecordFilter, Store

__all__ = ["PAGE", "reconcile"]

PAGE = 500


def _held(api: HindsightAPI) -> dict[str, DocumentInfo]:
    held: dict[str, DocumentInfo] = {}
    offset = 0
    while True:
        page = api.documents(limit=PAGE, offset=offset)
        held.update((d.id, d) for d in page)
        if len(page) < PAGE:
            return held
        offset += PAGE


def reconcile(store: Store, api: HindsightAPI) -> ReconcileReport:
    """Add the records the index lacks (or holds with other text), retag the documents whose tags
    drifted, delete the documents no indexed record stands behind. Safe to run at any time and
    again: a record changed meanwhile is also queued, and its job converges on the same state."""
    api.ensure_bank()
    held = _held(api)
    wanted: set[str] = set()
    checked = added = retagged = 0
    indexed = RecordFilter(statuses=tuple(INDEXED))
    for space in store.spaces.list():
        after: str | None = None
        while True:
            records = store.records.list(space.id, indexed, limit=PAGE, after_id=after)
            for record in records:
                checked += 1
                wanted.add(record.id)
                doc = held.get(record.id)
                if doc is None or doc.content_hash != content_hash(record):
                    api.retain(document_for(record))
                    added += 1
                elif doc.tags != frozenset(tags_for(record)):
                    api.retag(record.id, tags_for(record))
                    retagged += 1
            if len(records) < PAGE:
                break
            after = records[-1].id
    orphans = sorted(held.keys() - wanted)
    for document_id in orphans:
        api.delete(document_id)
    return ReconcileReport(checked=checked, added=added, retagged=retagged, deleted=len(orphans))
