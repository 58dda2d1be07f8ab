"""What recall returns: hits with their score breakdown, and the run's bookkeeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain import Record

__all__ = ["RecallHit", "RecallResult", "SignalScore"]


class SignalScore(BaseModel):
    """One signal's part in a hit's score: its rank in that signal, raw score and RRF share."""

    model_config = ConfigDict(frozen=True)

    rank: int
    raw: float
    contribution: float


class RecallHit(BaseModel):
    model_config = ConfigDict(frozen=True)

    record: Record
    score: float
    tokens: int
    why: dict[str, SignalScore] = Field(default_factory=dict)

    def explain(self) -> str:
        """A one-line reason, e.g. `keyword #1 (8.42) + semantic #3 (0.61) + recency #2 (2026-03-05)`."""
        parts = [
            f"{name} #{s.rank} ({_raw(name, s.raw)})"
            for name, s in sorted(self.why.items(), key=lambda i: -i[1].contribution)
        ]
        return " + ".join(parts) or "no signal"


def _raw(signal: str, raw: float) -> str:
    # Recency's raw value is a timestamp: a date reads better than 1.77e+09.
    # Any stored time must explain: a float timestamp near either end of the calendar can round
    # past it, so it is clamped to the calendar and shown as its date.
    if signal == "recency":
        seconds = min(max(raw, _FIRST_SECOND), _LAST_SECOND)
        return (_EPOCH + timedelta(seconds=seconds)).strftime("%Y-%m-%d")
    return f"{raw:.3g}"


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_FIRST_SECOND = (datetime.min.replace(tzinfo=UTC) - _EPOCH).total_seconds()
_LAST_SECOND = (datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC) - _EPOCH).total_seconds()


class RecallResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    query: str
    strategy: str
    hits: list[RecallHit]
    tokens: int
    # Ranked high enough to return but left out because the token budget was spent.
    over_budget: int = 0
    candidates: int = 0
    timings_ms: dict[str, float] = Field(default_factory=dict)
    # Signals that could not run (e.g. "semantic" while the embedding model is down): the ranking
    # was made without them.
    unavailable: list[str] = Field(default_factory=list)
    # Which engine answered ("builtin", "hindsight"), and how many of the results an outside index
    # proposed the store refused: another space's, not matching the filter (e.g. no longer current),
    # or gone. Fail closed: such a result is never returned, only counted.
    engine: str = "builtin"
    dropped: int = 0
