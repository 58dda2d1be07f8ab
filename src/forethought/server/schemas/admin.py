"""Health, readiness, API keys, subjects and sessions."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from forethought.domain import Role, Session, Space, Turn
from forethought.domain.candidates import Rejection
from forethought.domain.keys import MEMBER, ApiKey, KeyRole
from forethought.domain.limits import MAX_SPEAKER
from forethought.domain.times import MAX_TIME_CHARS
from forethought.pipeline.review import SubmittedItem
from forethought.server.schemas.common import RecordOut

__all__ = [
    "HealthOut",
    "KeyCreate",
    "KeyCreated",
    "KeyOut",
    "MessageIn",
    "ReadyOut",
    "RejectionOut",
    "SessionCreate",
    "SessionOut",
    "SubjectOut",
    "SubmissionOut",
    "SubmittedItemOut",
    "TurnOut",
]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HealthOut(BaseModel):
    status: Literal["ok"] = "ok"
    version: str


class ReadyOut(BaseModel):
    status: Literal["ready"] = "ready"
    mode: str = Field(description='"heuristic" (no language model: every stage is rule-based) or "llm:<model>".')
    heuristic: bool
    store: dict[str, object] = Field(description="Backend, schema version and counts (no content).")
    startup: dict[str, str] = Field(description="Background start-up work (model loading, demo data): state each.")


class KeyCreate(_In):
    name: str = Field(default="default", min_length=1, max_length=64, description="A label for people.")
    role: KeyRole = Field(
        default=MEMBER, description="`member` (reads and writes memory) or `admin` (also keys and erasure)."
    )


class KeyOut(BaseModel):
    id: str
    workspace: str
    name: str
    created_at: datetime
    revoked_at: datetime | None
    active: bool
    role: KeyRole = Field(description="`admin` may manage keys and erase; `member` may not.")

    @classmethod
    def of(cls, key: ApiKey) -> KeyOut:
        return cls(
            id=key.id,
            workspace=key.workspace,
            name=key.name,
            created_at=key.created_at,
            revoked_at=key.revoked_at,
            active=key.active,
            role=key.role,
        )


class KeyCreated(KeyOut):
    key: str = Field(description="The full key. Shown once: only its hash is stored.")


class SubjectOut(BaseModel):
    app: str
    subject_id: str
    created_at: datetime

    @classmethod
    def of(cls, app: str, space: Space) -> SubjectOut:
        return cls(app=app, subject_id=space.key.subject_id, created_at=space.created_at)


class AppOut(BaseModel):
    app: str
    subject_type: str
    subjects: int = Field(description="How many subjects of this app hold memory in your workspace.")


class WorkspaceOut(BaseModel):
    """Who the key is: its workspace, and what the workspace holds per app."""

    workspace: str
    key_id: str
    role: KeyRole = Field(description="This key's role: `admin` or `member`.")
    mode: str = Field(description='"heuristic", or "llm:<model>" when a model is configured.')
    apps: list[AppOut]


class MessageIn(_In):
    role: str = Field(
        max_length=MAX_SPEAKER, description="user, assistant, tool, system (or a name: customer, student, advisor...)."
    )
    content: str
    speaker: str | None = Field(default=None, max_length=MAX_SPEAKER)


Speaker = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_SPEAKER)]


class SessionCreate(_In):
    """A transcript to capture: `text` ("Speaker: line" chat, JSON or JSON Lines) or `messages`."""

    title: str = Field(min_length=1, max_length=200)
    text: str | None = Field(default=None, description="The transcript as text, in `format`.")
    messages: list[MessageIn] | None = Field(default=None, max_length=5000)
    format: Literal["auto", "text", "json", "jsonl", "markdown", "cursor"] = "auto"
    human: Speaker | None = Field(
        default=None,
        description=(
            'In a plain-text chat between named speakers ("Maria: ..."): the person\'s name; every other '
            "speaker is the assistant side."
        ),
    )
    occurred_at: str | None = Field(
        default=None,
        max_length=MAX_TIME_CHARS,
        description=(
            "When the session happened, for a transcript without times: an ISO 8601 time with a time zone "
            "(e.g. 2026-03-04T10:12:00Z or 2026-03-04T11:12:00+01:00). It wins over the transcript's own times."
        ),
    )

    @model_validator(mode="after")
    def _one_source(self) -> SessionCreate:
        if (self.text is None) == (self.messages is None):
            raise ValueError("give exactly one of text or messages")
        return self


class TurnOut(BaseModel):
    index: int
    role: Role
    speaker: str | None
    text: str
    occurred_at: datetime | None

    @classmethod
    def of(cls, turn: Turn) -> TurnOut:
        return cls.model_validate(turn.model_dump())


class SessionOut(BaseModel):
    id: str
    title: str
    source: str
    created_at: datetime
    turns: list[TurnOut]

    @classmethod
    def of(cls, session: Session) -> SessionOut:
        return cls(
            id=session.id,
            title=session.title,
            source=session.source,
            created_at=session.created_at,
            turns=[TurnOut.of(t) for t in session.turns],
        )


class SessionSummaryOut(BaseModel):
    """A session in a list: its turns are counted, not included (`GET .../sessions/{id}` has them)."""

    id: str
    title: str
    source: str
    created_at: datetime
    turn_count: int

    @classmethod
    def of(cls, session: Session) -> SessionSummaryOut:
        return cls(
            id=session.id,
            title=session.title,
            source=session.source,
            created_at=session.created_at,
            turn_count=len(session.turns),
        )


class SubmittedItemOut(BaseModel):
    outcome: Literal["pending", "approved", "merged", "rejected"]
    relation: str = Field(description="new, duplicate, refines, conflicts or supersedes.")
    target_id: str | None = Field(description="The existing record the relation points at.")
    record: RecordOut

    @classmethod
    def of(cls, item: SubmittedItem) -> SubmittedItemOut:
        return cls(outcome=item.outcome, relation=item.relation.label.value, target_id=item.relation.target_id,
                   record=RecordOut.of(item.record))  # fmt: skip


class RejectionOut(BaseModel):
    rule: str = Field(description="The validator rule, e.g. secret, evidence_not_found, transient.")
    reason: str
    kind: str
    statement: str

    @classmethod
    def of(cls, rejection: Rejection) -> RejectionOut:
        c = rejection.candidate
        return cls(rule=rejection.rule, reason=rejection.reason, kind=c.kind, statement=c.statement)


class SubmissionOut(BaseModel):
    session: SessionOut
    items: list[SubmittedItemOut]
    rejected: list[RejectionOut]
    mode: str
    heuristic: bool
    degraded: str | None
