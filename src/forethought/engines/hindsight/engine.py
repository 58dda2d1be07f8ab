"""HindsightEngine: recall answered by a Hindsight server, records kept by the store.

The store stays the system of record (records, statuses, review, audit, erasure); Hindsight holds
one document per indexed record and ranks them (semantic, BM25, graph and temporal retrieval, fused
by reciprocal rank). Every recall filters by tags — the space always — and every result is re-read
from the store: a record of another space, one that no longer matches the filter (retired since
it was indexed) or one that is gone is dropped and counted (`RecallResult.dropped`), never
returned. Fail closed: the index proposes, the store decides.

When Hindsight cannot answer, the built-in engine does, from the store's own indexes, and the
result says so (`unavailable` holds "hindsight"). Changes reach Hindsight through the store's
index-sync queue: `sync` (and, by default, each recall first) drains it; `reconcile` repairs drift.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from forethought.domain import Record
from forethought.embed.base import Embedder
from forethought.engines.hindsight.base import HindsightAPI, HindsightUnavailable
from forethought.engines.hindsight.documents import tag_groups
from forethought.engines.hindsight.reconcile import reconcile
from forethought.engines.hindsight.sync import MAX_BACKOFF_S, drain
from forethought.recall.base import BuiltinEngine, RecallEngine, ReconcileReport, SyncReport
from forethought.recall.engine import RecallRequest
from forethought.recall.packing import estimate_tokens, pack
from forethought.recall.results import RecallHit, RecallResult, SignalScore
from forethought.store.base import RecordFilter, Store

__all__ = ["HindsightEngine", "admits"]

log = logging.getLogger(__name__)
_WORD = re.compile(r"\w")  # Hindsight refuses a query without a word character


def admits(record: Record, flt: RecordFilter) -> bool:
    """Whether the store's filter admits `record` (the same rules as `store.sql.filters`)."""
    if flt.statuses and record.status not in flt.statuses:
        return False
    if flt.kinds and record.kind not in flt.kinds:
        return False
    if not set(flt.tags) <= set(record.tags):
        return False
    if flt.occurred_after is not None and record.occurred_at < flt.occurred_after:
        return False
    if flt.occurred_before is not None and record.occurred_at >= flt.occurred_before:
        return False
    if flt.as_of is not None:
        ended = record.valid_to is not None and record.valid_to <= flt.as_of
        return record.occurred_at <= flt.as_of and not ended
    return True


class HindsightEngine(RecallEngine):
    """`api`: one bank of a Hindsight server (`HttpHindsight`, or `FakeHindsight` in tests).
    `sync_on_recall` drains up to `sync_limit` queued changes before each recall (read your own
    writes at the cost of one queue read per recall); `max_tokens` caps what Hindsight returns; a
    failed change is retried after 2, 4, 8, ... seconds, at most `max_backoff_s`."""

    name = "hindsight"
    remote = True

    def __init__(
        self,
        api: HindsightAPI,
        *,
        sync_on_recall: bool = True,
        sync_limit: int = 64,
        max_tokens: int = 8192,
        max_backoff_s: float = MAX_BACKOFF_S,
        fallback: RecallEngine | None = None,
    ) -> None:
        self.api = api
        self.sync_on_recall = sync_on_recall
        self.sync_limit = sync_limit
        self.max_tokens = max_tokens
        self.max_backoff_s = max_backoff_s
        self.fallback = fallback or BuiltinEngine()
        self.dropped = 0  # results refused by the store since this engine was made
        self._bank_ready = False

    def attach(self, store: Store) -> None:
        store.index_sync.enable()

    def sync(self, store: Store, *, limit: int = 256) -> SyncReport:
        if not self._bank_ready:  # once per engine: a bank is never deleted behind the engine's back
            try:
                self.api.ensure_bank()
            except HindsightUnavailable as exc:
                log.warning("Hindsight is unavailable; nothing synced: %s", exc)
                return SyncReport(pending=store.index_sync.pending())
            self._bank_ready = True
        return drain(store, self.api, limit=limit, max_backoff_s=self.max_backoff_s)

    def reconcile(self, store: Store) -> ReconcileReport:
        return reconcile(store, self.api)

    def describe(self) -> dict[str, Any]:
        return {"engine": self.name, "bank": self.api.bank, "dropped": self.dropped}

    def close(self) -> None:
        self.api.close()
        self.fallback.close()

    def recall(self, store: Store, embedder: Embedder | None, request: RecallRequest) -> RecallResult:
        if self.sync_on_recall and store.index_sync.pending(request.space_id):
            self.sync(store, limit=self.sync_limit)
        cfg = request.config
        if not _WORD.search(request.query):
            return RecallResult(query=request.query, strategy=cfg.name, hits=[], tokens=0, engine=self.name)
        try:
            found = self.api.recall(
                request.query, tag_groups(request.space_id, request.filter), max_tokens=self.max_tokens
            )
        except HindsightUnavailable as exc:
            log.warning("Hindsight is unavailable; recalling with the built-in engine: %s", exc)
            answer = self.fallback.recall(store, embedder, request)
            return answer.model_copy(update={"unavailable": [*answer.unavailable, self.name]})
        scores: dict[str, float] = {}
        for hit in found:  # a document may hold several memories: its best one ranks it
            scores.setdefault(hit.document_id, hit.score)
        ids = list(scores)[: max(cfg.candidates, request.k)]
        loaded = {r.id: r for r in store.records.get_many(request.space_id, ids)}  # drops other spaces' rows
        kept = [loaded[i] for i in ids if i in loaded and admits(loaded[i], request.filter)]
        dropped = len(ids) - len(kept)
        if dropped:
            self.dropped += dropped
            log.warning("dropped %d Hindsight result(s) the store does not admit (fail closed)", dropped)
        hits = [
            RecallHit(
                record=r,
                score=round(scores[r.id], 6),
                tokens=estimate_tokens(r.statement),
                why={self.name: SignalScore(rank=rank, raw=scores[r.id], contribution=scores[r.id])},
            )
            for rank, r in enumerate(kept, start=1)
        ]
        budget = request.token_budget if request.token_budget is not None else cfg.token_budget
        chosen, used = pack(hits, lambda h: h.tokens, budget, request.k)
        return RecallResult(
            query=request.query,
            strategy=cfg.name,
            hits=chosen,
            tokens=used,
            over_budget=max(0, min(request.k, len(hits)) - len(chosen)),
            candidates=len(hits),
            engine=self.name,
            dropped=dropped,
        )
