"""What the tools return as structured content: one pydantic model each, whose JSON schema is the
tool's output schema (the official client validates every result against it).

Every result names the project and app it was resolved to. Results that an LLM could have shaped
carry `mode` ("heuristic" or "llm:<model>"), `heuristic` (true when no model was involved, so an
agent never mistakes rule-based output for a model's judgement) and `degraded` (why a configured
model was not used).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AskResult",
    "BriefResult",
    "CheckResult",
    "CitedOut",
    "FilteredOut",
    "HitOut",
    "RecallResult",
    "RecordOut",
    "RejectedOut",
    "RuleOut",
    "RulebookResult",
    "SubmitResult",
    "SubmittedOut",
    "UsedOut",
    "ViolationOut",
]


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class _Scoped(_Out):
    project: str
    app: str


class _Moded(_Scoped):
    mode: str = Field(description="'heuristic' (rule-based, no LLM) or 'llm:<model>'")
    heuristic: bool = Field(description="True when no LLM was involved")
    degraded: str | None = Field(default=None, description="Why a configured LLM was not used, if it was not")


class RecordOut(_Out):
    handle: str = Field(description="The record's short handle, e.g. 'k7f3q2xa'")
    id: str
    kind: str
    statement: str


class UsedOut(RecordOut):
    reason: str = Field(description="Why the record applies to the task")
    score: float


class FilteredOut(_Out):
    handle: str
    id: str
    kind: str
    reason: str = Field(description="Why the record was left out")


class ExcerptOut(_Out):
    session_id: str
    turn_index: int
    occurred_at: str
    speaker: str | None = None
    quote: str = Field(description="Verbatim from a past session: unreviewed, not a rule")
    score: float


class BriefResult(_Moded):
    task: str
    block: str = Field(description="The memory block for the top of a system prompt ('' when nothing applies)")
    used: list[UsedOut]
    filtered: list[FilteredOut]
    excerpts: list[ExcerptOut] = Field(default_factory=list)
    block_tokens: int
    all_memory_tokens: int = Field(description="What loading every current record would cost, for contrast")
    note: str | None = None


class ViolationOut(_Out):
    handle: str
    record_id: str
    excerpt: str = Field(description="Verbatim from the content ('' when a required pattern is missing)")
    severity: str = Field(description="'error' or 'warning'")
    message: str
    fix: str
    source: str = Field(description="'pattern', 'value', 'action', 'policy' or 'judge'")
    path: str | None = Field(default=None, description="In a diff: the file the offending line is in")
    line: int | None = Field(default=None, description="In a diff: its line number in the new version")


class CheckResult(_Moded):
    clean: bool = Field(description="No violation of severity 'error'")
    violations: list[ViolationOut]
    records_checked: int
    skipped_patterns: int = Field(description="Check patterns that could not be run")


class SubmittedOut(RecordOut):
    relation: str = Field(description="new, duplicate, refines, conflicts or supersedes")
    flags: list[str] = Field(default_factory=list)


class RejectedOut(_Out):
    kind: str
    statement: str
    rule: str = Field(description="The validator rule, e.g. 'transient', 'secret', 'evidence_not_found'")
    reason: str


class SubmitResult(_Moded):
    session: str
    turns: int
    auto_approved: list[SubmittedOut] = Field(description="Approved on arrival by the app's review policy")
    pending: list[SubmittedOut] = Field(description="Waiting in the inbox for a person")
    merged: list[SubmittedOut] = Field(description="Already known: the evidence was added to these records")
    rejected: list[RejectedOut] = Field(description="Refused by the validator, with the reason")


class CitedOut(RecordOut):
    status: str


class AskResult(_Moded):
    question: str
    answer: str
    citations: list[str] = Field(description="Handles of the records the answer relies on")
    records: list[CitedOut]


class RuleOut(RecordOut):
    area: str
    since: str = Field(description="When it was decided or happened (date)")


class RulebookResult(_Scoped):
    markdown: str
    rules: list[RuleOut]
    truncated: bool = Field(description="True when there were more rules than one rulebook shows")


class HitOut(RecordOut):
    status: str
    occurred_at: str
    score: float
    why: str = Field(description="Which signals found it and their ranks, e.g. 'keyword #1 (8.4) + semantic #3'")
    signals: dict[str, float] = Field(description="Each signal's contribution to the score")


class RecallResult(_Scoped):
    query: str
    hits: list[HitOut]
