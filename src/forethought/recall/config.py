"""Recall strategies: typed configurations and their named presets."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from forethought.errors import InvalidInput

__all__ = ["PRESETS", "RecallConfig", "preset"]


class RecallConfig(BaseModel):
    """How recall finds and ranks records.

    Each signal proposes up to `candidates` records; reciprocal rank fusion adds
    `weight / (rrf_k + rank)` per signal. Recency ranks the fused candidates by `occurred_at`
    (newest first) and is added the same way, so it reorders near-ties but cannot pull in a
    record no other signal found.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    candidates: int = Field(default=50, ge=1, le=1000)
    rrf_k: float = Field(default=60.0, gt=0)
    keyword_weight: float = Field(default=1.0, ge=0)
    semantic_weight: float = Field(default=1.0, ge=0)
    terms_weight: float = Field(default=1.0, ge=0)
    recency_weight: float = Field(default=0.1, ge=0)
    # Default cap on what one recall returns, in estimated tokens of statement text.
    token_budget: int = Field(default=2_000, ge=1)


PRESETS: dict[str, RecallConfig] = {
    "balanced": RecallConfig(name="balanced"),
    "keyword": RecallConfig(name="keyword", semantic_weight=0.0, terms_weight=0.5, recency_weight=0.0),
    "semantic": RecallConfig(name="semantic", keyword_weight=0.0, terms_weight=0.0, recency_weight=0.0),
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
