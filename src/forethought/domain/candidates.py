"""What extraction proposes and what validation decides about it."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain import CheckPatterns, Evidence, Modality, Role

__all__ = ["Candidate", "CheckPatterns", "Flag", "Redaction", "Rejection", "Validated"]


class Flag(StrEnum):
    """Marks that keep a candidate out of bulk approval until a person looks at it."""

    INJECTION = "injection"  # instruction-like text: cannot be approved without an edit
    AGENT_ONLY = "agent_only"  # asserted only by the agent: confidence capped
    PERSONAL_DATA = "personal_data"  # redacted under the app's policy
    UNLIKELY = "unlikely"  # its extractor's learned model doubts it is standing memory: filtered


class Candidate(BaseModel):
    """A proposed memory: typed, with at least one verbatim quote from the session."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    statement: str
    attributes: dict[str, Any] = Field(default_factory=dict)
    evidence: list[Evidence] = Field(default_factory=list)
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    asserted_by: Role = Role.USER
    modality: Modality = Modality.DECIDED  # how the source put it (a plan is never a fact)
    extractor: str = "heuristic"
    tags: list[str] = Field(default_factory=list)
    check: CheckPatterns | None = None
    flags: list[Flag] = Field(default_factory=list)


class Rejection(BaseModel):
    """A candidate the validator refused, and why. Kept and shown, never silently dropped."""

    model_config = ConfigDict(frozen=True)

    candidate: Candidate
    rule: str  # the validator rule's name, e.g. "secret", "evidence_not_found"
    reason: str


class Redaction(BaseModel):
    """A span replaced in stored session text (secrets always; personal data by app policy)."""

    model_config = ConfigDict(frozen=True)

    turn_index: int
    rule: str
    replacement: str


class Validated(BaseModel):
    accepted: list[Candidate] = Field(default_factory=list)
    rejected: list[Rejection] = Field(default_factory=list)
    merged: int = 0  # duplicates within the session folded into an accepted candidate
