"""Audit events: the append-only log of every state change. They carry ids, never memory text."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Action", "AuditEvent"]


class Action(StrEnum):
    CREATED = "created"
    STATUS_CHANGED = "status_changed"
    EVIDENCE_ADDED = "evidence_added"
    IMPORTED = "imported"
    FORGOTTEN = "forgotten"
    SPACE_ERASED = "space_erased"
    SESSION_CAPTURED = "session_captured"
    SESSION_DELETED = "session_deleted"
    SOURCES_REDACTED = "sources_redacted"
    REVIEWED = "reviewed"  # a person re-confirmed a rule, or a read found its evidence gone (details.verdict)


class AuditEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    space_id: str
    action: Action
    actor: str
    at: datetime
    record_id: str | None = None
    lineage_id: str | None = None
    from_status: str | None = None
    to_status: str | None = None
    reason: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)
    # Position in the store's log, set when read back (for paging); None before it is written.
    seq: int | None = None
