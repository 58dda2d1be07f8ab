"""The project app's record kinds: the eight kinds of rule a coding team wants its agents to keep.

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
    "CHECKABLE",
    "KINDS",
    "RENAMED",
    "SOFT",
    "Architecture",
    "Constraint",
    "Convention",
    "Decision",
    "DependencyPolicy",
    "FailedApproach",
    "Preference",
    "Process",
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

# Kinds of earlier versions and the kind they became (stored records are renamed by migration 2).
RENAMED: dict[str, str] = {
    "security_constraint": "constraint",
    "api_contract": "constraint",
    "deployment": "process",
    "incident": "failed_approach",
}


class _Attributes(BaseModel):
    model_config = ConfigDict(extra="forbid")

    area: str = "general"


class Decision(_Attributes):
    what: str
    why: str | None = None
    alternatives_rejected: list[str] = Field(default_factory=list)


class Convention(_Attributes):
    rule: str
    topic: Literal["naming", "layout", "imports", "library", "style", "testing", "practice"] = "practice"


class Constraint(_Attributes):
    rule: str
    subject: str | None = None  # the header, endpoint, field, store or limit the rule is about


class Preference(_Attributes):
    what: str
    holder: Literal["person", "team"] = "team"


class FailedApproach(_Attributes):
    approach: str
    why_failed: str | None = None
    date: str | None = None  # as said ("March", "2024-03-12"), not parsed


class DependencyPolicy(_Attributes):
    rule: str
    package: str | None = None  # the library or tool the rule allows, pins or bans


class Process(_Attributes):
    rule: str
    environment: str | None = None  # production, staging, preview, ...


class Architecture(_Attributes):
    rule: str
    component: str | None = None  # the service, module or layer the rule is about


def _spec(name: str, description: str, attributes: type[BaseModel]) -> KindSpec:
    return KindSpec(name=name, description=description, attributes=attributes, review=Review.HUMAN)


# Review: anything that binds the team waits for a person; only a person's own preference (said
# by that person) is approved on arrival, which `ProjectApp.review` decides per candidate.
# No kind declares an `identity`: project rules are free text, so "the same rule" is a reviewer's
# call (the inbox's supersede action), never an automatic match on attribute values.
KINDS: dict[str, KindSpec] = {
    spec.name: spec
    for spec in (
        _spec("decision", "A choice the team made (\"we use X for Y\"): what, why, and the alternatives it rejected.",
              Decision),
        _spec("convention", "How code is written: naming, file layout, imports, style, testing habits.", Convention),
        _spec(
            "constraint",
            "A hard limit code must respect: never/must rules, security (tokens, secrets, personal data, authz), "
            "interface contracts (headers, endpoints, fields), performance and size bounds.",
            Constraint,
        ),
        _spec("preference", "How a person or the team likes work done, softer than a rule (e.g. small PRs).",
              Preference),
        _spec("failed_approach", "An approach that was tried and did not work, and why (so nobody repeats it).",
              FailedApproach),
        _spec("dependency_policy", "Which libraries, tools or versions are allowed, pinned or banned.",
              DependencyPolicy),
        _spec("process", "How work reaches production: review, release, branching, CI, deploys, migrations.",
              Process),
        _spec("architecture", "Component boundaries: which service or module owns what, layering, data flow.",
              Architecture),
    )
}  # fmt: skip

# The kinds whose records get check patterns read from their own words: every rule a draft can
# break, a failed approach coming back ("pre-signed URLs with 24h expiry leaked"), and a
# preference ("plain matplotlib, not seaborn"), which only warns (`SOFT`).
CHECKABLE = frozenset({"decision", "convention", "constraint", "dependency_policy", "process", "architecture",
                       "failed_approach", "preference"})  # fmt: skip
SOFT = frozenset({"preference"})
