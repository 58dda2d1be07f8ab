"""Recall, brief, check, ask, the governed turn and its traces. Every answer made by a stage that
can run on a model or on rules says which: `mode` ("heuristic" or "llm:<model>") and `heuristic`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain import Status
from forethought.domain.limits import MAX_FILE_PATH_CHARS, MAX_FILE_PATHS, MAX_QUERY
from forethought.llm.base import Usage
from forethought.pipeline.check import MAX_DRAFT_CHARS
from forethought.pipeline.reports import Answer, Brief, CheckReport, SkippedPattern, Violation
from forethought.pipeline.trace import (
    FilteredItem,
    RecalledItem,
    Remembered,
    Stage,
    Trace,
    UsedItem,
    ViolationItem,
)
from forethought.pipeline.turn import MAX_MESSAGE, TurnResult
from forethought.recall import RecallHit, RecallResult, SignalScore
from forethought.server.schemas.common import RecordOut

__all__ = [
    "AnswerOut",
    "AskIn",
    "BriefIn",
    "BriefItemOut",
    "BriefOut",
    "CheckIn",
    "CheckOut",
    "ExcerptOut",
    "FilteredOut",
    "HitOut",
    "RecallIn",
    "RecallOut",
    "TraceOut",
    "TurnIn",
    "TurnOut",
]

_MODE = 'What did the work: "heuristic" (rules, no language model) or "llm:<model>".'


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RecallIn(_In):
    query: str = Field(max_length=MAX_QUERY)
    k: int = Field(default=10, ge=1, le=200)
    kinds: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=64)
    tags: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=32)
    statuses: list[Status] | None = Field(default=None, description="Default: active (and superseded with as_of).")
    as_of: str | None = Field(default=None, description="Time travel in valid time: what was true then.")
    after: str | None = None
    before: str | None = None
    strategy: str = Field(default="balanced", description="A recall preset name.")
    token_budget: int | None = Field(default=None, ge=1)


class HitOut(BaseModel):
    record: RecordOut
    score: float
    tokens: int
    why: dict[str, SignalScore] = Field(description="Per signal: rank, raw score and share of the fused score.")
    explain: str = Field(description="The same, as one line for people.")

    @classmethod
    def of(cls, hit: RecallHit) -> HitOut:
        return cls(
            record=RecordOut.of(hit.record), score=hit.score, tokens=hit.tokens, why=hit.why, explain=hit.explain()
        )


class RecallOut(BaseModel):
    query: str
    strategy: str
    hits: list[HitOut]
    tokens: int
    over_budget: int
    candidates: int
    unavailable: list[str] = Field(description="Signals that could not run (e.g. semantic while the model loads).")
    timings_ms: dict[str, float]

    @classmethod
    def of(cls, result: RecallResult) -> RecallOut:
        data = result.model_dump(exclude={"hits"})
        return cls(**data, hits=[HitOut.of(h) for h in result.hits])


class BriefIn(_In):
    task: str = Field(max_length=MAX_QUERY, description="What the model is about to do.")
    limit: int = Field(default=5, ge=1, le=50)
    file_paths: list[Annotated[str, Field(max_length=MAX_FILE_PATH_CHARS)]] = Field(
        default_factory=list, max_length=MAX_FILE_PATHS
    )
    max_excerpts: int = Field(
        default=3, ge=0, le=10, description="Past-session excerpts allowed in the room the records leave (0: none)."
    )


class ExcerptOut(BaseModel):
    """A verbatim passage of a past session: unreviewed, never a rule (promote it through
    `POST .../inbox/from-excerpt` to make it a candidate)."""

    session_id: str
    session_title: str
    turn_index: int
    role: str
    speaker: str | None
    occurred_at: datetime
    quote: str
    score: float


class BriefItemOut(BaseModel):
    record: RecordOut
    reason: str
    score: float


class FilteredOut(BaseModel):
    record: RecordOut
    reason: str


class BriefOut(BaseModel):
    task: str
    used: list[BriefItemOut]
    filtered: list[FilteredOut]
    excerpts: list[ExcerptOut] = Field(description="Unreviewed past-session passages, labelled as such in the block.")
    block: str = Field(description="The memory block for the top of a system prompt (data, not instructions).")
    block_tokens: int
    all_memory_tokens: int
    recalled: bool
    mode: str = Field(description=_MODE)
    heuristic: bool
    degraded: str | None
    note: str | None
    usage: Usage
    timings_ms: dict[str, float]

    @classmethod
    def of(cls, brief: Brief) -> BriefOut:
        return cls(
            **brief.model_dump(exclude={"used", "filtered", "usage", "excerpts"}),
            usage=brief.usage,
            excerpts=[ExcerptOut(**e.model_dump(mode="json")) for e in brief.excerpts],
            used=[BriefItemOut(record=RecordOut.of(i.record), reason=i.reason, score=i.score) for i in brief.used],
            filtered=[FilteredOut(record=RecordOut.of(i.record), reason=i.reason) for i in brief.filtered],
            heuristic=brief.mode == "heuristic",
        )


class CheckIn(_In):
    draft: str = Field(max_length=MAX_DRAFT_CHARS, description="The draft reply, code or plan to check against memory.")
    path: str | None = Field(
        default=None,
        min_length=1,
        max_length=500,
        description="The file the draft is for: rules about other files stay off it (a diff names its own).",
    )
    diff: bool | None = Field(
        default=None, description="Read the draft as a unified diff (true), as content (false); omitted: detected."
    )


class CheckOut(BaseModel):
    violations: list[Violation] = Field(description="In a checked diff, each names its file (`path`) and `line`.")
    diff: bool = Field(default=False, description="Whether the draft was read as a unified diff.")
    dropped_judge_findings: int
    skipped_patterns: list[SkippedPattern]
    records_checked: int
    clean: bool = Field(description="No violation of severity error.")
    mode: str = Field(description=_MODE)
    heuristic: bool
    degraded: str | None
    usage: Usage
    timings_ms: dict[str, float]

    @classmethod
    def of(cls, report: CheckReport, *, diff: bool = False) -> CheckOut:
        return cls.model_validate({**dict(report), "heuristic": report.mode == "heuristic", "diff": diff})


class AskIn(_In):
    question: str = Field(max_length=MAX_QUERY)


class AnswerOut(BaseModel):
    question: str
    text: str
    citations: list[str] = Field(description="Handles of the records the answer relies on.")
    records: list[RecordOut]
    mode: str = Field(description=_MODE)
    heuristic: bool
    degraded: str | None
    usage: Usage

    @classmethod
    def of(cls, answer: Answer) -> AnswerOut:
        return cls(
            question=answer.question,
            text=answer.text,
            citations=answer.citations,
            records=[RecordOut.of(r) for r in answer.records],
            mode=answer.mode,
            heuristic=answer.mode == "heuristic",
            degraded=answer.degraded,
            usage=answer.usage,
        )


class TurnIn(_In):
    message: str = Field(max_length=MAX_MESSAGE)
    session_id: str | None = Field(default=None, description="Continue this session (else a new one).")


class TurnOut(BaseModel):
    reply: str
    session_id: str
    trace_id: str
    blocked: bool = Field(description="The draft went against memory twice and was not sent.")
    mode: str = Field(description=_MODE)
    heuristic: bool
    used: list[UsedItem] = Field(description="The records the reply was given: id, handle, reason.")
    degraded: list[str] = Field(description="Stages that fell back, and why.")

    @classmethod
    def of(cls, result: TurnResult) -> TurnOut:
        trace = result.trace
        return cls(
            reply=result.reply,
            session_id=result.session_id,
            trace_id=trace.id,
            blocked=result.blocked,
            mode=trace.mode,
            heuristic=trace.heuristic,
            used=trace.used,
            degraded=trace.degraded,
        )


class TraceOut(BaseModel):
    """What one governed turn did, stage by stage (ids, reasons, timings — never memory text)."""

    # A trace also names the internal space id, which no client sees: read by attribute, only the
    # fields below leave.
    model_config = ConfigDict(from_attributes=True)

    id: str
    kind: str
    session_id: str | None
    app: str
    created_at: datetime
    mode: str = Field(description=_MODE)
    heuristic: bool
    stages: list[Stage]
    recalled: list[RecalledItem]
    used: list[UsedItem]
    filtered: list[FilteredItem]
    violations: list[ViolationItem]
    regenerated: bool
    blocked: bool
    memory: Remembered = Field(description="What the turn proposed to remember, by handle.")
    usage: Usage
    degraded: list[str]

    @classmethod
    def of(cls, trace: Trace) -> TraceOut:
        return cls.model_validate(trace)
