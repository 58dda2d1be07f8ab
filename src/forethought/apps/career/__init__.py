"""The career app: a student's skills, projects, applications, goals and preferences.

The heuristic extractor reads only the student's turns (the advisor's words never become the
student's facts); the LLM extractor is the generic one, driven by the kinds' descriptions and
`GUIDANCE`. Review: what the student states about themselves is approved on arrival; anything
asserted by someone else (the advisor, a tool) waits for a person.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from forethought.apps.base import App, Applicability, KindSpec, PolicyFinding, Review
from forethought.apps.career.demo import DEMO
from forethought.apps.career.extract import extract
from forethought.apps.career.kinds import GUIDANCE, KINDS, UNSPECIFIED_ROLE
from forethought.apps.career.policy import career_applicability, career_findings
from forethought.apps.demo import Demo
from forethought.domain import Record, Role, Session
from forethought.domain.candidates import Candidate

__all__ = ["APP", "UNSPECIFIED_ROLE", "CareerApp"]


class CareerApp(App):
    name = "career"
    title = "Career advisor"
    subject_type = "student"
    kinds: ClassVar[Mapping[str, KindSpec]] = KINDS
    extraction_guidance = GUIDANCE
    persona = (
        "You are a career advisor for students. Use what you remember about the student: never recommend a "
        "company that rejected them for the same role, never assume a skill they said they lack, and respect "
        "their stated preferences."
    )

    def extract(self, session: Session) -> list[Candidate]:
        return extract(session)

    def demo(self) -> Demo:
        return DEMO

    def review(self, candidate: Candidate) -> Review:
        """Auto-approve the student's own statements of a known kind; everything else waits for a person."""
        if candidate.kind not in self.kinds or candidate.asserted_by is not Role.USER:
            return Review.HUMAN
        return Review.AUTO

    def applicability(self, task: str, record: Record) -> Applicability | None:
        return career_applicability(task, record)

    def policy_findings(self, draft: str, records: Sequence[Record]) -> list[PolicyFinding]:
        return career_findings(draft, records)


APP = CareerApp()
