"""Recall strategies: typed configurations and their named presets."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from forethought.errors import InvalidInput

__all__ = ["PRESETS", "RecallConfig", "preset"]


class RecallConfig(BaseModel):
    """How recall finds and ranks records.

    Three searches propose up to `candidates` records each: keyword (BM25), semantic (nearest
    embeddings) and exact terms (identifiers and names, weighted by rarity). Weighted reciprocal
    rank fusion adds `weight / (rrf_k + rank)` per signal, tied scores sharing a rank. Three pool
    signals then rank the records the searches found, and are added the same way, so they reorder
    but never pull in a record no search found:
    - statement: how much of the query the record's own statement says (its `context` is
      searched too, but a record matched only through its context should not outrank the
      record that says it);
    - period: the record occurred in a period the query names ("in March 2024");
    - recency: newest first.

    The defaults (= the `balanced` preset) were chosen on two LoCoMo conversations and checked on
    three others (`bench/locomo.py`, `docs/benchmarks.md`): a small `rrf_k` lets the top of each
    list count, and BM25 outweighs the small embedding model, which blurs names and specifics.
    20 candidates a search (twice the usual k) instead of 50 costs LoCoMo one point of
    recall@10 (0.853 -> 0.843) and 0.6 of NDCG@10, and makes recall cheaper (p50 14.9 -> 11.8 ms
    there; over HTTP on two cores, 33-42 % more requests a second); a request for more than
    `candidates` results searches deeper (`max(candidates, k)`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    candidates: int = Field(default=20, ge=1, le=1000)
    rrf_k: float = Field(default=10.0, gt=0)
    keyword_weight: float = Field(default=1.0, ge=0)
    semantic_weight: float = Field(default=0.7, ge=0)
    terms_weight: float = Field(default=1.0, ge=0)
    statement_weight: float = Field(default=0.5, ge=0)
    period_weight: float = Field(default=1.0, ge=0)
    recency_weight: float = Field(default=0.1, ge=0)
    # Default cap on what one recall returns, in estimated tokens of statement text.
    token_budget: int = Field(default=2_000, ge=1)


_PURE = {"statement_weight": 0.0, "period_weight": 0.0, "recency_weight": 0.0}

PRESETS: dict[str, RecallConfig] = {
    "balanced": RecallConfig(name="balanced"),
    "keyword": RecallConfig(name="keyword", semantic_weight=0.0, terms_weight=0.5, recency_weight=0.0),
    # Meaning alone: no keyword search, and no keyword-based reordering of what it found.
    "semantic": RecallConfig(name="semantic", keyword_weight=0.0, terms_weight=0.0, **_PURE),
    "exact": RecallConfig(name="exact", keyword_weight=1.0, semantic_weight=0.5, terms_weight=2.0),
    "recent": RecallConfig(name="recent", recency_weight=1.0),
}


def preset(name: str | RecallConfig) -> RecallConfig:
    if isinstance(name, RecallConfig):
        return name
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidInput(f"unknown recall strategy {name!r} (known: {', '.join(PRESETS)})") from None
