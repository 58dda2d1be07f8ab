"""The App seam: what an application plugs into the memory pipeline.

An app (career advisor, support desk, project memory, or a third party's) declares its record
kinds with typed attribute models and review policies, and supplies the rule-based parts of each
stage: a heuristic extractor, applicability rules for the brief, and policy checks for drafts. The
LLM-backed stages are generic and read the app's kinds and guidance to build their prompts.

What a generic stage needs to know about an app's vocabulary it asks through the same hook names
in every app: `extract` (the heuristic extractor), `areas` (the brief's areas of work),
`failed_kinds` (the kinds that record a failed attempt, which `check` looks for), `identity` on
each `KindSpec`, and `demo` (the app's demo data). Apps register through
`forethought.plugins.Registry.add_app`, the same hook a third party uses.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from forethought.apps.areas import WORK_AREAS, Area
from forethought.apps.demo import Demo
from forethought.domain import CheckPatterns, Record, Session
from forethought.domain.candidates import Candidate
from forethought.store.types import AppMigration

__all__ = ["FAILED_ATTEMPT_KINDS", "App", "Applicability", "Failed", "KindSpec", "PolicyFinding", "Review"]


class Review(StrEnum):
    AUTO = "auto"  # approved on arrival (e.g. what a person states about themselves)
    HUMAN = "human"  # waits in the inbox (e.g. team decisions)


class Failed(StrEnum):
    """When a record of a failed-attempt kind says that the attempt failed."""

    ALWAYS = "always"  # the kind itself says so ("we tried X; it failed")
    # only when its attributes say so: `outcome`/`result`/`status` names a failure, or
    # `succeeded`/`success`/`worked` is false (an attempt, an outcome that may have been a fix)
    WHEN_ATTRIBUTES_SAY = "when_attributes_say"


# The kinds the built-in apps write failed attempts with (project's failed approach, support's
# attempts and outcomes). The façade stores a record of any kind in any space, and spaces of every
# app hold them today (a career student's failed approach, a support customer's), so every app
# counts them unless it says otherwise.
FAILED_ATTEMPT_KINDS: Mapping[str, Failed] = {
    "failed_approach": Failed.ALWAYS,
    "outcome_reported": Failed.WHEN_ATTRIBUTES_SAY,
    "action_attempted": Failed.WHEN_ATTRIBUTES_SAY,
}


class KindSpec(BaseModel):
    """One record kind: its meaning (for prompts and docs), attributes and review policy."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    name: str
    description: str
    attributes: type[BaseModel]
    review: Review = Review.HUMAN
    # Attribute names that identify "the same thing": a new record of this kind whose values
    # match an active one supersedes it (an application's status change replaces the old status).
    identity: tuple[str, ...] = ()


class Applicability(BaseModel):
    """Whether a recalled record applies to the task at hand, and why (shown to the user)."""

    model_config = ConfigDict(frozen=True)

    applies: bool
    reason: str


class PolicyFinding(BaseModel):
    """A draft that breaks an app rule given a record (e.g. recommends a failed fix again)."""

    model_config = ConfigDict(frozen=True)

    record_id: str
    excerpt: str  # verbatim from the draft
    severity: Literal["error", "warning"]
    message: str
    suggestion: str


class App(ABC):
    """An application's memory model. Subclasses set the class attributes and `extract`; every
    other hook has a default."""

    name: str  # "career", "support", "project", "generic"
    title: str
    subject_type: str  # what a space is about: "student", "customer", "project", "subject"
    kinds: ClassVar[Mapping[str, KindSpec]]
    personal_data: Literal["reject", "redact"] = "redact"
    # The app's own relational data (a catalogue, tickets, rulebook snapshots): versioned steps
    # over tables named `app_<name>_*`, applied when a memory opens, in the core's history.
    migrations: ClassVar[tuple[AppMigration, ...]] = ()
    # Extra instructions for the LLM extractor (what matters in this domain, what never to store).
    extraction_guidance: str = ""
    # Who the assistant is in this app's conversations (the generator's instructions).
    persona: str = "You are a helpful assistant that remembers what matters about the person you talk to."
    # The brief's areas of work: a task and a record sharing one weigh as specific evidence.
    areas: ClassVar[tuple[Area, ...]] = WORK_AREAS
    # Kinds that record a failed attempt: `check` recalls them for every draft and flags a draft
    # that recommends one again.
    failed_kinds: ClassVar[Mapping[str, Failed]] = FAILED_ATTEMPT_KINDS
    # Kinds whose check findings only warn (a preference is not a rule a draft must follow).
    soft_kinds: ClassVar[frozenset[str]] = frozenset()
    # The learned relevance model the brief decides with in heuristic mode: the name of a weights
    # file under `forethought/judge/weights/` (`relevance-<name>.json`) and its pinned sha256;
    # None keeps the rule and heuristic verdicts.
    relevance: ClassVar[tuple[str, str] | None] = None

    @abstractmethod
    def extract(self, session: Session) -> list[Candidate]:
        """Rule-based candidates from a session (the heuristic extractor; deterministic)."""

    def review(self, candidate: Candidate) -> Review:
        """The review policy for a candidate; the default is its kind's."""
        spec = self.kinds.get(candidate.kind)
        return spec.review if spec else Review.HUMAN

    def check_patterns(self, kind: str, text: str) -> CheckPatterns | None:
        """The patterns `check` enforces for a record of `kind` saying `text`, read from its own
        words by the app's rules, for a record given none (retained directly, or from a model's
        answer); None when the app derives none."""
        return None

    def checks_values(self, kind: str) -> bool:
        """Whether `check` holds a draft's settings to the values a record of `kind` fixes ("1 KiB
        chunks", "Node 20"); off by default, since a value in a chat reply is rarely a setting."""
        return False

    def slots(self, kind: str, text: str) -> dict[str, Any] | None:
        """The kind's attributes filled from `text` by the app's own rules, for a model's answer
        whose attributes do not fit the kind; None when the app has no slot filler."""
        return None

    def applicability(self, task: str, record: Record) -> Applicability | None:
        """Rule-based applicability of a record to a task; None leaves it to the generic judge."""
        return None

    def policy_findings(self, draft: str, records: Sequence[Record]) -> list[PolicyFinding]:
        """App rules a draft breaks given the records provided (beyond check patterns)."""
        return []

    def action_key(self, text: str) -> str | None:
        """The app's normalised name for an action mentioned in `text` ("toggle BT" → "restart
        bluetooth"), so `check` can match a failed action recommended again in other words.
        None when the app has no action vocabulary or the text names no known action."""
        return None

    def demo(self) -> Demo:
        """The app's demo data (memories to seed, a tour's session); the default has none."""
        return Demo()
