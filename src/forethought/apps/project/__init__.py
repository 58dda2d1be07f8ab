"""Project memory for coding agents: decisions, constraints, conventions, contracts and lessons.

Captures coding-agent sessions (user, agent and tool turns), extracts typed records with verbatim
evidence, briefs the next task with the records that apply to it (and why), and checks a draft
against them: derived check patterns catch forbidden code or a missing header, and policy findings
catch a draft that repeats a failed approach or a rejected alternative.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from forethought.apps.base import App, Applicability, KindSpec, PolicyFinding, Review
from forethought.apps.demo import Demo
from forethought.apps.project.areas import vote
from forethought.apps.project.demo import DEMO
from forethought.apps.project.extract import extract
from forethought.apps.project.kinds import CHECKABLE, KINDS, SOFT
from forethought.apps.project.patterns import derive_patterns
from forethought.apps.project.policy import applicability, policy_findings
from forethought.apps.project.slots import attributes
from forethought.domain import CheckPatterns, Record, Role, Session
from forethought.domain.candidates import Candidate

__all__ = ["APP", "ProjectApp"]

_GUIDANCE = """\
Extract what the team decided and what code must keep doing, not what happened in this session.
Keep: decisions with their reasons and rejected alternatives; security rules (token storage,
secrets, logging of personal data, authorization checks); coding conventions (libraries to use or
avoid, naming, file layout, imports); API contracts (headers, endpoints, response shapes, schema
fields); past incidents with cause, impact and date; approaches that were tried and failed, with
why; deployment rules (pipelines, release days, approvals, migrations); team or personal
preferences about how work is done. Set `area` to the part of the system a fact governs (auth,
payments, db, deploy, testing, observability, infra, frontend, api, process, or general).
Never keep: branch names, local machine problems ("my build fails on Node 18"), ideas deferred to
later ("not in this sprint"), questions, the agent's plans or progress reports, tool output."""


class ProjectApp(App):
    name = "project"
    title = "Project memory"
    subject_type = "project"
    kinds: ClassVar[Mapping[str, KindSpec]] = KINDS
    personal_data = "redact"
    soft_kinds: ClassVar[frozenset[str]] = SOFT
    relevance: ClassVar[tuple[str, str] | None] = (
        "project",
        "16fb3967c31c71b69124ffee979db24d0a0f3e3dffed7919cfb13353d044ed9f",
    )
    extraction_guidance = _GUIDANCE
    persona = (
        "You are a coding agent working in this project's codebase. Follow the project's recorded decisions, "
        "security constraints, conventions and API contracts, and do not repeat approaches that already failed."
    )

    def extract(self, session: Session) -> list[Candidate]:
        return extract(session)

    def check_patterns(self, kind: str, text: str) -> CheckPatterns | None:
        return derive_patterns(text) if kind in CHECKABLE else None

    def checks_values(self, kind: str) -> bool:
        return kind in CHECKABLE

    def slots(self, kind: str, text: str) -> dict[str, Any] | None:
        if kind not in KINDS:
            return None
        return {**attributes(kind, text), "area": vote(text).best()}

    def demo(self) -> Demo:
        return DEMO

    def review(self, candidate: Candidate) -> Review:
        """Human review for anything binding the team or asserted by an agent or tool; a person's own
        preference, said by that person, is approved on arrival."""
        if candidate.asserted_by is not Role.USER:
            return Review.HUMAN
        if candidate.kind == "preference" and candidate.attributes.get("holder") == "person":
            return Review.AUTO
        return super().review(candidate)

    def applicability(self, task: str, record: Record) -> Applicability | None:
        return applicability(task, record)

    def policy_findings(self, draft: str, records: Sequence[Record]) -> list[PolicyFinding]:
        return policy_findings(draft, records)


APP = ProjectApp()
