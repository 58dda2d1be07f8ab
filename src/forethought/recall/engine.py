"""Hybrid recall: keyword (BM25), semantic (embeddings), exact terms and recency, fused by RRF."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from forethought.embed.base import Embedder
from forethought.recall.config import RecallConfig
from forethought.recall.packing import estimate_tokens, pack
from forethought.recall.results import RecallHit, RecallResult, SignalScore
from forethought.recall.text import analyze
from forethought.store.base import RecordFilter, ScoredId, Store

__all__ = ["RecallRequest", "run_recall"]


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

    def run(self, name: str, fn: Callable[[], list[ScoredId]]) -> list[ScoredId]:
        start = time.perf_counter()
        try:
            return fn()
        finally:
            self.timings[name] = round((time.perf_counter() - start) * 1000, 3)


def run_recall(store: Store, embedder: Embedder | None, request: RecallRequest) -> RecallResult:
    cfg = request.config
    timer = _Timer()
    analysis = analyze(request.query)
    n = max(cfg.candidates, request.k)
    flt, space = request.filter, request.space_id

    ranked: dict[str, list[ScoredId]] = {}
    if cfg.keyword_weight > 0 and store.capabilities.fts and analysis.fts_query:
        ranked["keyword"] = timer.run("keyword", lambda: store.keyword_search(space, analysis.fts_query, flt, n))
    if cfg.semantic_weight > 0 and store.capabilities.vectors and embedder is not None:
        start = time.perf_counter()
        vector = embedder.embed_one(request.query)
        timer.timings["embed"] = round((time.perf_counter() - start) * 1000, 3)
        ranked["semantic"] = timer.run("semantic", lambda: store.vector_search(space, vector, flt, n))
    if cfg.terms_weight > 0 and analysis.terms:
        ranked["terms"] = timer.run("terms", lambda: store.term_search(space, analysis.terms, flt, n))

    weights = {"keyword": cfg.keyword_weight, "semantic": cfg.semantic_weight, "terms": cfg.terms_weight}
    why: dict[str, dict[str, SignalScore]] = {}
    for signal, found in ranked.items():
        for rank, hit in enumerate(found, start=1):
            share = weights[signal] / (cfg.rrf_k + rank)
            why.setdefault(hit.record_id, {})[signal] = SignalScore(rank=rank, raw=hit.score, contribution=share)

    start = time.perf_counter()
    records = {r.id: r for r in store.get_many(space, list(why))}
    timer.timings["load"] = round((time.perf_counter() - start) * 1000, 3)
    if cfg.recency_weight > 0 and records:
        newest = sorted(records.values(), key=lambda r: (r.occurred_at, r.id), reverse=True)
        for rank, record in enumerate(newest, start=1):
            stamp = record.occurred_at.timestamp()
            share = cfg.recency_weight / (cfg.rrf_k + rank)
            why[record.id]["recency"] = SignalScore(rank=rank, raw=stamp, contribution=share)

    scored = sorted(
        ((sum(s.contribution for s in why[rid].values()), record) for rid, record in records.items()),
        key=lambda item: (-item[0], item[1].id),
    )
    hits = [
        RecallHit(record=record, score=round(score, 6), tokens=estimate_tokens(record.statement), why=why[record.id])
        for score, record in scored
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
    )
