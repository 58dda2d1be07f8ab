"""The support app: a customer's problems and what was suggested, tried, failed and fixed.

`normalise_action` maps paraphrases of a troubleshooting step to one canonical name; the check stage
uses it (through `SupportApp.action_key`) to catch a failed step recommended again in other words.

Review policy. What the customer says about their own problem, attempts and outcomes is approved on
arrival. The agent's suggestions are approved on arrival too, as `action_suggested`: the record is
a fact about what was suggested (its quote is the agent's own turn), and it can never be mistaken
for an attempt or a fix because those are other kinds. Anything else the agent asserts, notably a
claim that the issue is resolved, waits for a person.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from forethought.apps.base import App, Applicability, KindSpec, PolicyFinding, Review
from forethought.apps.demo import Demo
from forethought.apps.support.actions import find_actions, normalise_action
from forethought.apps.support.demo import DEMO
from forethought.apps.support.extract import extract
from forethought.apps.support.kinds import GUIDANCE, KINDS
from forethought.apps.support.policy import support_applicability, support_findings
from forethought.domain import Record, Role, Session
from forethought.domain.candidates import Candidate

__all__ = ["APP", "SupportApp", "normalise_action"]


class SupportApp(App):
    name = "support"
    title = "Support desk"
    subject_type = "customer"
    kinds: ClassVar[Mapping[str, KindSpec]] = KINDS
    extraction_guidance = GUIDANCE
    persona = (
        "You are a support agent. Use what you remember about this customer: never suggest again a step that "
        "already failed, say what was tried, and never call an issue resolved until the customer confirms it."
    )

    def extract(self, session: Session) -> list[Candidate]:
        return extract(session)

    def demo(self) -> Demo:
        return DEMO

    def review(self, candidate: Candidate) -> Review:
        """Customer statements and agent suggestions are approved on arrival; other agent claims wait."""
        if candidate.kind not in self.kinds:
            return Review.HUMAN
        if candidate.asserted_by is Role.USER:
            return Review.AUTO
        if candidate.kind == "action_suggested" and candidate.asserted_by is Role.AGENT:
            return Review.AUTO
        return Review.HUMAN

    def applicability(self, task: str, record: Record) -> Applicability | None:
        return support_applicability(task, record)

    def policy_findings(self, draft: str, records: Sequence[Record]) -> list[PolicyFinding]:
        return support_findings(draft, records)

    def action_key(self, text: str) -> str | None:
        mentions = find_actions(text)
        return mentions[0].action.name if mentions else None


APP = SupportApp()
