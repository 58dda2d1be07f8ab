"""Records: retain, supersede, retract, history; and the inbox's review actions."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain import CheckPatterns, Role
from forethought.domain.limits import MAX_EXTERNAL_ID, MAX_STATEMENT
from forethought.pipeline.promote import MAX_QUOTE
from forethought.server.schemas.admin import RejectionOut, SubmittedItemOut
from forethought.server.schemas.common import AuditEventOut, RecordOut

__all__ = [
    "MAX_BATCH",
    "ApproveAllIn",
    "ApproveIn",
    "ApprovedOut",
    "EditIn",
    "ForgetOut",
    "HistoryOut",
    "RejectIn",
    "RetainBatchIn",
    "RetainIn",
    "RetainManyItem",
    "RetainedBatchOut",
    "RetainedOut",
    "RetractIn",
    "SupersedeIn",
]

_TIME = "An ISO 8601 date or time (UTC when no offset is given)."
# The core's limits, stated in the schema so clients see them (the façade enforces them too).
MAX_REASON = 1000
MAX_KIND = 64


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RetainIn(_In):
    text: str = Field(
        max_length=MAX_STATEMENT, description="The statement: one sentence that will be injected into prompts."
    )
    kind: str = Field(default="note", max_length=MAX_KIND, description="The record kind (see the app's kinds).")
    tags: list[str] = Field(default_factory=list, max_length=32)
    occurred_at: str | None = Field(default=None, description=f"When it was decided or happened. {_TIME}")
    external_id: str | None = Field(
        default=None,
        max_length=MAX_EXTERNAL_ID,
        description="Your id for it: retaining the same external id again returns the first record.",
    )
    attributes: dict[str, Any] | None = None
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    status: Literal["active", "candidate"] = Field(default="active", description="candidate: into the inbox.")
    asserted_by: Role = Role.USER
    context: str | None = Field(
        default=None, max_length=MAX_STATEMENT, description="Text said around it: searched, never injected."
    )
    check: CheckPatterns | None = Field(default=None, description="Regexes a draft must not / must match.")


MAX_BATCH = 500  # memories one batch request may carry (the 1 MiB body limit usually binds first)


class RetainManyItem(_In):
    """One memory of a batch: the fields of a single retain that a batch stores as active records."""

    text: str = Field(max_length=MAX_STATEMENT)
    kind: str = Field(default="note", max_length=MAX_KIND)
    tags: list[str] = Field(default_factory=list, max_length=32)
    occurred_at: str | None = Field(default=None, description=f"When it was decided or happened. {_TIME}")
    external_id: str | None = Field(
        default=None, max_length=MAX_EXTERNAL_ID, description="Retaining the same external id again changes nothing."
    )
    attributes: dict[str, Any] | None = None
    context: str | None = Field(default=None, max_length=MAX_STATEMENT)


class RetainBatchIn(_In):
    items: list[RetainManyItem] = Field(min_length=1, max_length=MAX_BATCH)


class RetainedOut(BaseModel):
    record: RecordOut
    created: bool = Field(description="False when the external id named a record retained before.")


class RetainedBatchOut(BaseModel):
    items: list[RetainedOut] = Field(description="One per item, in the order sent.")
    created: int = Field(description="How many items made a new record (the rest named one retained before).")


class SupersedeIn(_In):
    text: str = Field(max_length=MAX_STATEMENT)
    kind: str | None = Field(default=None, max_length=MAX_KIND, description="Default: the old record's kind.")
    tags: list[str] | None = Field(default=None, max_length=32, description="Default: the old record's tags.")
    occurred_at: str | None = Field(default=None, description=f"When the new fact took effect. {_TIME}")
    reason: str | None = Field(default=None, max_length=MAX_REASON)
    attributes: dict[str, Any] | None = None


class RetractIn(_In):
    why: str = Field(max_length=MAX_REASON, description="Why the record was wrong (kept in the audit trail).")


class HistoryOut(BaseModel):
    record: RecordOut
    chain: list[RecordOut] = Field(description="Versions and supersessions, oldest first.")
    events: list[AuditEventOut] = Field(description="Their audit events, newest first.")


class ForgetOut(BaseModel):
    forgotten: int = Field(description="Versions erased from every table and index.")
    purged: bool = Field(
        default=True,
        description="False when another reader kept the erased bytes in the database file or its log"
        " for now: they are removed at the next write after the reader lets go (see `erasure_pending`).",
    )


class ApproveIn(_In):
    reason: str | None = Field(default=None, max_length=MAX_REASON)
    conflict: Literal["supersede", "keep_both"] | None = Field(
        default=None, description="For a candidate that conflicts with a record: replace it, or keep both."
    )


class SupersedeWithIn(_In):
    target: str = Field(min_length=1, max_length=64, description="The active record (id or handle) it replaces.")
    reason: str | None = Field(default=None, max_length=MAX_REASON)


class EditIn(_In):
    text: str = Field(
        max_length=MAX_STATEMENT, description="The corrected statement (a new version; the old one is rejected)."
    )
    tags: list[str] | None = Field(default=None, max_length=32)
    reason: str | None = Field(default=None, max_length=MAX_REASON)


class RejectIn(_In):
    reason: str | None = Field(default=None, max_length=MAX_REASON)


class ApproveAllIn(_In):
    high_confidence: bool = Field(default=False, description="Only candidates with confidence ≥ 0.8 that are new.")


class ApprovedOut(BaseModel):
    approved: list[RecordOut]


class FromExcerptIn(_In):
    """A brief's excerpt to file as a candidate: where it was said and its words, verbatim."""

    session_id: str = Field(min_length=1, max_length=64)
    turn_index: int = Field(ge=0, le=100_000)
    quote: str = Field(min_length=1, max_length=MAX_QUOTE)
    kind: str | None = Field(
        default=None,
        max_length=64,
        description="One of the app's kinds; without it the app's extractor reads the quote.",
    )
    statement: str | None = Field(default=None, max_length=MAX_STATEMENT, description="The rule in your words.")


class FromExcerptOut(BaseModel):
    """What the passage gave: candidates (pending unless the app's policy approves them), records
    it added evidence to, and what the validator refused, with its rule."""

    items: list[SubmittedItemOut]
    rejected: list[RejectionOut]
