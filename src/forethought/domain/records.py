"""Records: typed, immutable memories with evidence, provenance and bi-temporal times."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "CheckPatterns",
    "Evidence",
    "Modality",
    "Provenance",
    "Record",
    "Relation",
    "RelationLabel",
    "Role",
    "Status",
]


class Status(StrEnum):
    CANDIDATE = "candidate"
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    RETRACTED = "retracted"
    REJECTED = "rejected"


class Role(StrEnum):
    """Who said something: the person, the agent, a tool, or the system itself."""

    USER = "user"
    AGENT = "agent"
    TOOL = "tool"
    SYSTEM = "system"


class Modality(StrEnum):
    """How the source put what a record says: decided, proposed, planned, done or reported.

    Only `decided` (and `done`, for what was tried) can become a standing rule: a plan is not a
    fact and an agent's proposal is not the person's rule.
    """

    DECIDED = "decided"
    PROPOSED = "proposed"
    PLANNED = "planned"
    DONE = "done"
    REPORTED = "reported"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Evidence(_Frozen):
    """A verbatim quote supporting a record, and where it was said."""

    quote: str
    session_id: str | None = None
    turn_index: int | None = None
    role: Role | None = None


class Provenance(_Frozen):
    """Where a record came from and who vouched for it."""

    asserted_by: Role = Role.USER
    extractor: str = "manual"  # "manual", "heuristic", "llm:<model>", "import"
    source: str = "api"  # the front end that wrote it: api, cli, import, turn...
    reviewed_by: str | None = None
    modality: Modality | None = None  # how the source put it; None for records written directly


class CheckPatterns(_Frozen):
    """Deterministic checks a record carries into `check`: regexes a draft must not / must match."""

    forbid: tuple[str, ...] = ()
    require: tuple[str, ...] = ()


class RelationLabel(StrEnum):
    """How a candidate relates to what the space already holds (decided before review)."""

    NEW = "new"
    DUPLICATE = "duplicate"  # the same fact: adds evidence to the existing record instead
    REFINES = "refines"  # a more precise version of an existing record
    CONFLICTS = "conflicts"  # contradicts an existing record; a person decides
    SUPERSEDES = "supersedes"  # replaces an existing record (e.g. a status change)


class Relation(_Frozen):
    label: RelationLabel = RelationLabel.NEW
    target_id: str | None = None  # one of the records recalled for the comparison
    reason: str = ""


class Record(_Frozen):
    """One typed memory. Never edited in place: an edit is a new version (same lineage)."""

    id: str
    space_id: str
    handle: str
    lineage_id: str
    version: int = 1
    previous_id: str | None = None
    kind: str
    statement: str
    # Text said around the statement (e.g. the neighbouring turns): searched, never injected.
    context: str | None = None
    attributes: dict[str, Any] = Field(default_factory=dict)
    evidence: tuple[Evidence, ...] = ()
    provenance: Provenance = Field(default_factory=Provenance)
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    status: Status = Status.ACTIVE
    tags: tuple[str, ...] = ()
    occurred_at: datetime
    recorded_at: datetime
    valid_to: datetime | None = None
    external_id: str | None = None
    supersedes: tuple[str, ...] = ()
    superseded_by: str | None = None
    # Review-time metadata: validator flags (e.g. "injection"), the relation found before review,
    # and deterministic check patterns the record carries into `check`.
    flags: tuple[str, ...] = ()
    relation: Relation | None = None
    check: CheckPatterns | None = None

    @property
    def is_current(self) -> bool:
        return self.status is Status.ACTIVE

    def valid_at(self, when: datetime) -> bool:
        """True when this record describes the world at `when` (valid time, not record time)."""
        if self.status in (Status.CANDIDATE, Status.REJECTED, Status.RETRACTED):
            return False
        return self.occurred_at <= when and (self.valid_to is None or self.valid_to > when)
