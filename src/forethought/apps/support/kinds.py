"""The support app's record kinds: what happened to a customer's problem, and who said so.

Suggested, attempted, failed and resolved are different states, kept as different kinds, so that an
agent's suggestion is never remembered as something the customer tried, and a customer's "I'll try
that" is never remembered as a fix. Actions are stored in their canonical form (`normalise_action`).
The descriptions are prompt text for the LLM extractor.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from forethought.apps.base import KindSpec, Review

__all__ = [
    "GUIDANCE",
    "KINDS",
    "ActionAttempted",
    "ActionSuggested",
    "Outcome",
    "OutcomeReported",
    "ProblemReported",
    "Regression",
    "ResolutionConfirmed",
]

Outcome = Literal["failed", "succeeded", "partial"]


class _Attributes(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProblemReported(_Attributes):
    summary: str = Field(min_length=1, max_length=300)
    product: str | None = None
    symptoms: list[str] = Field(default_factory=list)


class ActionSuggested(_Attributes):
    action: str = Field(min_length=1, max_length=120)
    by: Literal["agent", "kb"] = "agent"


class ActionAttempted(_Attributes):
    action: str = Field(min_length=1, max_length=120)
    problem: str | None = None  # the session's problem, for matching later tasks


class OutcomeReported(_Attributes):
    action: str = Field(min_length=1, max_length=120)
    outcome: Outcome
    problem: str | None = None


class ResolutionConfirmed(_Attributes):
    action: str | None = None  # what fixed it, when the customer says
    problem: str | None = None


class Regression(_Attributes):
    summary: str = Field(min_length=1, max_length=300)
    product: str | None = None
    action: str | None = None  # the fix that stopped working, when named


_ACTION = (
    "action: the step in a short canonical form (restart bluetooth, re-pair device, reset network settings, update "
    "firmware, reinstall the app, clear cache, factory reset...)."
)
KINDS: dict[str, KindSpec] = {
    "problem_reported": KindSpec(
        name="problem_reported",
        description=(
            "A problem the customer reports. summary: the problem in the customer's words; product: the device "
            "or app; symptoms: short phrases (disconnects, crashes, won't charge)."
        ),
        attributes=ProblemReported,
        review=Review.AUTO,
    ),
    "action_suggested": KindSpec(
        name="action_suggested",
        description=(
            "A troubleshooting step the agent (or a knowledge-base article, by=kb) suggested. It says nothing "
            f"about whether the customer did it. {_ACTION}"
        ),
        attributes=ActionSuggested,
        review=Review.AUTO,
    ),
    "action_attempted": KindSpec(
        name="action_attempted",
        description=(
            "A step the customer says they actually did ('I restarted it', 'did that'). Never from 'I'll try that', "
            f"a question, or the agent's suggestion. {_ACTION}"
        ),
        attributes=ActionAttempted,
        review=Review.AUTO,
    ),
    "outcome_reported": KindSpec(
        name="outcome_reported",
        description=(
            "What happened after the customer did a step, in their words: failed ('still disconnecting', 'no luck'), "
            f"succeeded, or partial ('a bit better'). {_ACTION}"
        ),
        attributes=OutcomeReported,
        review=Review.AUTO,
    ),
    "resolution_confirmed": KindSpec(
        name="resolution_confirmed",
        description=(
            "The customer explicitly confirms the problem is fixed ('that fixed it', 'works now'). Silence, thanks, "
            "'ok' or 'I'll try that' are not resolutions. action: what fixed it, if known."
        ),
        attributes=ResolutionConfirmed,
        review=Review.AUTO,
    ),
    "regression": KindSpec(
        name="regression",
        description=(
            "A problem that came back after it had been fixed ('it's disconnecting again'). action: the fix that "
            "stopped working, when named."
        ),
        attributes=Regression,
        review=Review.AUTO,
    ),
}

GUIDANCE = (
    "The user is a customer; the agent is a support agent. Keep the states apart: the agent suggesting a step is "
    "action_suggested (asserted by the agent), never an attempt; only the customer saying they did it is an "
    "attempt; 'I'll try that', 'will do', 'should I ...?' are not attempts; 'still disconnecting after I "
    "restarted' is an attempt plus a failed outcome; only an explicit 'that fixed it' / 'works now' from the "
    "customer is a resolution, and the agent claiming the issue is resolved is asserted by the agent. A step the "
    "agent narrates ('you already tried a factory reset') is not a new suggestion. Quote the exact words."
)
