"""Hybrid recall: keyword (BM25), semantic (embeddings) and exact-term searches propose records;
pool signals (the statement's own match, a period the query names, recency) reorder them;
weighted reciprocal rank fusion adds it all up (see `fusion.py` and `RecallConfig`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from forethought.domain import Record
from forethought.embed.base import Embedder
from forethought.embed.cache import embedded
from forethought.errors import BackendError
from forethought.recall.config import RecallConfig
from forethought.recall.fusion import rrf, shared_ranks
from forethought.recall.packing import estimate_tokens, pack
from forethought.recall.query import analyze
from forethought.recall.results import RecallHit, RecallResult, SignalScore
from forethought.recall.signals import by_period, by_recency, by_statement
from forethought.store.base import RecordFilter, ScoredId, Store

__all__ = ["RecallRequest", "run_recall"]

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecallRequest:
    space_id: str
    query: str
    k: int
    filter: RecordFilter
    config: RecallConfig
    token_budget: int | None = None


class _Timer:
    def __init__(self) -> None:
        self.timings: dict[str, float] = {}

    def run(self, name: str, fn: Callable[[], T]) -> T:
        start = time.perf_counter()
        try:
            return fn()
        finally:
            self.timings[name] = round((time.perf_counter() - start) * 1000, 3)


class _Fusion:
    """The score breakdown being built: record id → signal → its share."""

    def __init__(self, rrf_k: float) -> None:
        self.rrf_k = rrf_k
        self.why: dict[str, dict[str, SignalScore]] = {}

    def add(self, signal: str, found: Sequence[tuple[str, float]], weight: float, *, cut: bool) -> None:
        """Add one signal's ranking (best first); `cut` says the list stopped at its limit."""
        if weight <= 0 or not found:
            return
        ranks = shared_ranks([raw for _, raw in found], cut=cut)
        shares = rrf({rid: rank for (rid, _), rank in zip(found, ranks, strict=True)}, weight, self.rrf_k)
        for position, (rid, raw) in enumerate(found, start=1):
            # A record in a dropped tie stays a candidate (the pool signals may still rank it),
            # but earns nothing from this signal.
            share = shares.get(rid, 0.0)
            self.why.setdefault(rid, {})[signal] = SignalScore(rank=position, raw=raw, contribution=share)

    def score(self, record_id: str) -> float:
        return sum(s.contribution for s in self.why.get(record_id, {}).values())


def _pairs(found: list[ScoredId]) -> list[tuple[str, float]]:
    return [(hit.record_id, hit.score) for hit in found]


def run_recall(store: Store, embedder: Embedder | None, request: RecallRequest) -> RecallResult:
    cfg = request.config
    timer = _Timer()
    analysis = analyze(request.query)
    n = max(cfg.candidates, request.k)
    flt, space = request.filter, request.space_id
    fusion = _Fusion(cfg.rrf_k)

    if cfg.keyword_weight > 0 and store.capabilities.fts and analysis.keywords:
        found = timer.run("keyword", lambda: store.search.keyword(space, analysis.keywords, flt, n))
        fusion.add("keyword", _pairs(found), cfg.keyword_weight, cut=len(found) >= n)
    unavailable: list[str] = []
    if cfg.semantic_weight > 0 and store.capabilities.vectors and embedder is not None:
        try:
            vector = timer.run("embed", lambda: embedded(embedder, [request.query])[0])
        except BackendError as exc:
            # A model that is down must not take recall with it: the other signals still answer.
            log.warning("query embedding failed; recalling without the semantic signal: %s", exc)
            unavailable.append("semantic")
        else:
            found = timer.run("semantic", lambda: store.search.vector(space, vector, flt, n))
            fusion.add("semantic", _pairs(found), cfg.semantic_weight, cut=len(found) >= n)
    if cfg.terms_weight > 0 and analysis.terms:
        found = timer.run("terms", lambda: store.search.terms(space, analysis.terms, flt, n))
        fusion.add("terms", _pairs(found), cfg.terms_weight, cut=len(found) >= n)

    loaded = timer.run("load", lambda: store.records.get_many(space, list(fusion.why)))
    records: dict[str, Record] = {r.id: r for r in loaded}
    pool = list(records.values())
    if cfg.statement_weight > 0:
        found_s = timer.run("statement", lambda: by_statement(analysis.focus, pool))
        fusion.add("statement", found_s, cfg.statement_weight, cut=False)
    if cfg.period_weight > 0 and analysis.periods:
        fusion.add("period", by_period(analysis.periods, pool), cfg.period_weight, cut=False)
    if cfg.recency_weight > 0:
        fusion.add("recency", by_recency(pool), cfg.recency_weight, cut=False)

    scored = sorted(((fusion.score(rid), record) for rid, record in records.items()), key=lambda i: (-i[0], i[1].id))
    hits = [
        RecallHit(record=r, score=round(score, 6), tokens=estimate_tokens(r.statement), why=fusion.why[r.id])
        for score, r in scored
    ]
    budget = request.token_budget if request.token_budget is not None else cfg.token_budget
    kept, used = pack(hits, lambda h: h.tokens, budget, request.k)
    within_k = min(request.k, len(hits))
    return RecallResult(
        query=request.query,
        strategy=cfg.name,
        hits=kept,
        tokens=used,
        over_budget=max(0, within_k - len(kept)),
        candidates=len(hits),
        timings_ms=timer.timings,
        unavailable=unavailable,
    )
