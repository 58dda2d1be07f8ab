"""Shapes shared by every resource: the error envelope, pages, records and audit events."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain import AuditEvent, CheckPatterns, Evidence, Provenance, Record, Relation, Status

__all__ = ["ERRORS", "AuditEventOut", "ErrorDetail", "ErrorOut", "Page", "RecordOut"]

T = TypeVar("T")


class ErrorDetail(BaseModel):
    code: str = Field(description="A stable machine-readable code, e.g. not_found, invalid_input, rate_limited.")
    message: str = Field(description="One human-readable line.")
    details: Any = Field(default=None, description="For validation errors: the list of findings.")


class ErrorOut(BaseModel):
    """The one shape of every error response."""

    error: ErrorDetail


def _error(description: str) -> dict[str, Any]:
    return {"model": ErrorOut, "description": description}


# Documented on every /v1 route (FastAPI merges them into the OpenAPI schema).
ERRORS: dict[int | str, dict[str, Any]] = {
    401: _error("No API key, or an unknown or revoked one."),
    403: _error("A member key on a route that needs an admin key (keys, erasure)."),
    404: _error("Nothing of that id in the caller's workspace (or an unknown app)."),
    409: _error("The request contradicts stored state (e.g. a status change the lifecycle forbids)."),
    413: _error("The request body is over the size limit."),
    422: _error("Invalid input: pydantic findings in `details`, or a message from the memory service."),
    429: _error("Over the per-key rate limit, or too many failed authentications; see Retry-After."),
    503: _error("The store or a model is unavailable; retry later."),
}


class Page(BaseModel, Generic[T]):
    """One page of a list. Pass `next_cursor` as `cursor` to get the next; null means the end."""

    items: list[T]
    next_cursor: str | None = None


class RecordOut(BaseModel):
    """A stored memory (see docs/architecture.md for the meaning of every field)."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    handle: str = Field(description="A short human handle, usable wherever an id is.")
    lineage_id: str
    version: int
    previous_id: str | None
    kind: str
    statement: str
    context: str | None
    attributes: dict[str, Any]
    evidence: list[Evidence]
    provenance: Provenance
    confidence: float
    status: Status
    tags: list[str]
    occurred_at: datetime
    recorded_at: datetime
    valid_to: datetime | None
    external_id: str | None
    supersedes: list[str]
    superseded_by: str | None
    flags: list[str]
    relation: Relation | None
    check: CheckPatterns | None

    @classmethod
    def of(cls, record: Record) -> RecordOut:
        return cls.model_validate(record.model_dump(exclude={"space_id"}))


class AuditEventOut(BaseModel):
    id: str
    seq: int | None
    action: str
    actor: str = Field(description="Who made the change: key:<id> for the API, cli, policy:auto, validator...")
    at: datetime
    record_id: str | None
    lineage_id: str | None
    from_status: str | None
    to_status: str | None
    reason: str | None
    details: dict[str, Any]

    @classmethod
    def of(cls, event: AuditEvent) -> AuditEventOut:
        return cls.model_validate(event.model_dump(exclude={"space_id"}))
