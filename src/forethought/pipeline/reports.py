"""What the read-side stages return: a `Brief` (selection before generation), a `CheckReport`
(verification after it) and an `Answer` (reflect). Each says which mode produced it
("heuristic" or "llm:<model>"), why it fell back to the heuristic if it did (`degraded`), what the
model calls cost (`usage`) and how long each step took (`timings_ms`), so a trace can show it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain import Record, Role
from forethought.llm.base import Usage

__all__ = [
    "Answer",
    "Brief",
    "BriefItem",
    "CheckReport",
    "Excerpt",
    "FilteredItem",
    "Severity",
    "SkippedPattern",
    "Violation",
    "ViolationSource",
]

Severity = Literal["error", "warning"]
ViolationSource = Literal["pattern", "value", "action", "policy", "judge"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class BriefItem(_Frozen):
    """A record chosen for the memory block, the reason it applies and its recall score."""

    record: Record
    reason: str
    score: float


class FilteredItem(_Frozen):
    """A recalled record left out of the block, and why (not applicable, over the limit, ...)."""

    record: Record
    reason: str


class Excerpt(_Frozen):
    """A verbatim passage of a past session about the task: unreviewed, never a rule. It can be
    promoted to a candidate record (`Pipeline.promote_excerpt`), which then goes to review."""

    session_id: str
    session_title: str
    turn_index: int
    role: Role
    speaker: str | None = None
    occurred_at: datetime
    quote: str  # a verbatim slice of the stored (scrubbed) turn
    score: float


class Brief(_Frozen):
    task: str
    used: list[BriefItem] = Field(default_factory=list)
    filtered: list[FilteredItem] = Field(default_factory=list)
    # Passages of past sessions about the task that no reviewed record holds (room permitting).
    excerpts: list[Excerpt] = Field(default_factory=list)
    block: str = ""  # the memory block for the top of a system prompt ("" when nothing applies)
    block_tokens: int = 0
    # What loading every current record of the space would cost (statements only), for contrast.
    all_memory_tokens: int = 0
    recalled: bool = False  # False when the space holds no current memory (no recall was run)
    mode: str = "heuristic"  # "heuristic" | "llm:<model>": what actually judged applicability
    degraded: str | None = None  # why the LLM judge was not used although a model was given
    note: str | None = None  # a plain-language remark, e.g. that the space holds no memory
    usage: Usage = Field(default_factory=Usage)
    timings_ms: dict[str, float] = Field(default_factory=dict)


class Violation(_Frozen):
    """One way a draft goes against memory, quoting the draft."""

    record_id: str
    handle: str
    # Verbatim from the draft. Empty for a `require` pattern the draft never matches (there is
    # nothing to quote: the violation is what the draft leaves out).
    excerpt: str
    severity: Severity
    message: str
    suggestion: str
    source: ViolationSource
    # What kind of conflict, in words that quote no memory: traces keep this, never `message`,
    # which names the record's statement (a forgotten record must leave no text behind).
    rule: str = ""
    path: str | None = None  # in a checked diff: the file, and the line in its new version
    line: int | None = None


class SkippedPattern(_Frozen):
    """A record's check pattern that was not run (it does not compile, or is unsafe to run)."""

    record_id: str
    handle: str
    pattern: str
    reason: str


class CheckReport(_Frozen):
    violations: list[Violation] = Field(default_factory=list)
    # LLM judge findings refused: citing a record that was not provided, or quoting text that is
    # not in the draft.
    dropped_judge_findings: int = 0
    skipped_patterns: list[SkippedPattern] = Field(default_factory=list)
    records_checked: int = 0
    clean: bool = True  # no violation of severity "error"
    mode: str = "heuristic"  # "heuristic" | "llm:<model>" (deterministic checks always run)
    degraded: str | None = None
    usage: Usage = Field(default_factory=Usage)
    timings_ms: dict[str, float] = Field(default_factory=dict)


class Answer(_Frozen):
    """An answer drawn only from memory, citing record handles."""

    question: str
    text: str
    citations: list[str] = Field(default_factory=list)  # handles of the records the text relies on
    records: list[Record] = Field(default_factory=list)  # the records cited, current ones first
    mode: str = "heuristic"
    degraded: str | None = None
    usage: Usage = Field(default_factory=Usage)
    timings_ms: dict[str, float] = Field(default_factory=dict)
