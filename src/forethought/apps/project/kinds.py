"""The project app's record kinds: what a coding team wants its agents to remember.

Every kind carries an `area` (which part of the system the fact governs), so the brief can match
records to the files and words of a task. Attribute models forbid unknown fields: an extractor that
invents a field fails validation instead of storing something nobody reads.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from forethought.apps.base import KindSpec, Review

__all__ = [
    "AREAS",
    "KINDS",
    "ApiContract",
    "Convention",
    "Decision",
    "Deployment",
    "FailedApproach",
    "Incident",
    "Preference",
    "SecurityConstraint",
]

# The areas a record can be about, most specific first (ties in area inference go to the earlier).
AREAS: tuple[str, ...] = (
    "auth",
    "payments",
    "db",
    "deploy",
    "testing",
    "observability",
    "infra",
    "frontend",
    "api",
    "process",
    "general",
)


class _Attributes(BaseModel):
    model_config = ConfigDict(extra="forbid")

    area: str = "general"


class Decision(_Attributes):
    what: str
    why: str | None = None
    alternatives_rejected: list[str] = Field(default_factory=list)


class SecurityConstraint(_Attributes):
    rule: str


class Convention(_Attributes):
    rule: str
    topic: Literal["naming", "layout", "imports", "library", "practice"] = "practice"


class ApiContract(_Attributes):
    rule: str
    subject: str | None = None  # the header, endpoint, field or schema the rule is about


class Incident(_Attributes):
    what: str
    impact: str | None = None
    date: str | None = None  # as said ("March", "2024-03-12", "last Tuesday"), not parsed


class FailedApproach(_Attributes):
    approach: str
    why_failed: str | None = None


class Deployment(_Attributes):
    rule: str
    environment: str | None = None  # production, staging, preview, ...


class Preference(_Attributes):
    what: str
    holder: Literal["person", "team"] = "team"


def _spec(name: str, description: str, attributes: type[BaseModel]) -> KindSpec:
    return KindSpec(name=name, description=description, attributes=attributes, review=Review.HUMAN)


# Review: anything that binds the team waits for a person; only a person's own preference (said
# by that person) is approved on arrival, which `ProjectApp.review` decides per candidate.
# No kind declares an `identity`: project rules are free text, so "the same rule" is a reviewer's
# call (the inbox's supersede action), never an automatic match on attribute values.
KINDS: dict[str, KindSpec] = {
    spec.name: spec
    for spec in (
        _spec("decision", "A choice the team made: what, why, and the alternatives it rejected.", Decision),
        _spec(
            "security_constraint",
            "A security rule code must follow (token storage, secrets, logging of personal data, authz checks).",
            SecurityConstraint,
        ),
        _spec(
            "convention", "A coding convention: naming, file layout, imports, libraries to use or avoid.", Convention
        ),
        _spec(
            "api_contract",
            "A rule about an interface: endpoints, headers, request and response shapes, CRD fields.",
            ApiContract,
        ),
        _spec("incident", "Something that went wrong in the past: what happened, its impact, when.", Incident),
        _spec(
            "failed_approach", "An approach that was tried and failed, and why (so nobody repeats it).", FailedApproach
        ),
        _spec(
            "deployment", "How code reaches an environment: pipelines, release days, approvals, migrations.", Deployment
        ),
        _spec("preference", "How the team or one person likes work done (e.g. small PRs).", Preference),
    )
}
