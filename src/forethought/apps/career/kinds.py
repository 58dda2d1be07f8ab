"""The career app's record kinds: what an advisor needs to remember about a student.

Attribute models forbid unknown fields, so an extractor that invents one fails validation instead
of storing something nobody reads. The descriptions are prompt text for the LLM extractor: they say
what counts, what does not, and how to fill each attribute.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from forethought.apps.base import KindSpec, Review

__all__ = [
    "GUIDANCE",
    "KINDS",
    "UNSPECIFIED_ROLE",
    "Application",
    "Preference",
    "Project",
    "Skill",
    "SkillLevel",
    "TargetRole",
]

SkillLevel = Literal["beginner", "intermediate", "advanced", "expert", "unknown"]
ApplicationStatus = Literal["applied", "interviewing", "rejected", "offered", "accepted", "withdrawn"]
PreferenceTopic = Literal["work_mode", "company_size", "location", "industry", "role", "other"]
# An application whose role was not said. A sentinel rather than None, so that two role-less
# mentions of one company share an identity and a later status supersedes the earlier one.
UNSPECIFIED_ROLE = "unspecified"


class _Attributes(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Skill(_Attributes):
    name: str = Field(min_length=1, max_length=80)
    level: SkillLevel = "unknown"
    has: bool = True  # False records the absence: "I don't know Python"


class Project(_Attributes):
    name: str = Field(min_length=1, max_length=120)
    description: str = ""
    technologies: list[str] = Field(default_factory=list)


class Application(_Attributes):
    company: str = Field(min_length=1, max_length=80)
    role: str = UNSPECIFIED_ROLE
    status: ApplicationStatus


class TargetRole(_Attributes):
    role: str = Field(min_length=1, max_length=80)
    industry: str | None = None
    location: str | None = None


class Preference(_Attributes):
    topic: PreferenceTopic
    value: str = Field(min_length=1, max_length=80)
    avoid: bool = False  # True: the student wants to stay away from `value`
    strength: Literal["strong", "mild"] = "mild"


KINDS: dict[str, KindSpec] = {
    "skill": KindSpec(
        name="skill",
        description=(
            "A skill, language, framework or tool the student says they have, or says they do NOT have. "
            "name: the skill as usually written (Python, C++, machine learning). has: false when the student "
            "denies it ('I don't know Python', 'I've never used Rust'); never record the skill itself then. "
            "level: beginner (learning, just started, a course, under a year), intermediate (comfortable, "
            "good at, one to two years), advanced (proficient, strong, three or more years), expert (only "
            "when the student says expert), else unknown. Wanting to learn something is not a skill."
        ),
        attributes=Skill,
        review=Review.AUTO,
    ),
    "project": KindSpec(
        name="project",
        description=(
            "Something the student built or is building (an app, a bot, an engine, a model, a website). "
            "name: a short noun phrase (chess engine); description: what it does; technologies: the "
            "languages and tools named for it. Plans to build something are not projects."
        ),
        attributes=Project,
        review=Review.AUTO,
    ),
    "application": KindSpec(
        name="application",
        description=(
            "The student's application to a company, with its current status: applied, interviewing (an "
            "interview or assessment is scheduled or done), rejected, offered, accepted, withdrawn (also a "
            "declined offer). company: the company as named; role: the role in lower case without "
            "'role'/'position' ('backend intern'), or 'unspecified' when not said. A status change is a new "
            "record with the same company and role. Plans ('I might apply') are not applications."
        ),
        attributes=Application,
        review=Review.AUTO,
        identity=("company", "role"),
    ),
    "target_role": KindSpec(
        name="target_role",
        description=(
            "A role the student wants to reach ('I want to become a data engineer'). role: lower case "
            "(data engineer); industry and location only when the student names them."
        ),
        attributes=TargetRole,
        review=Review.AUTO,
    ),
    "preference": KindSpec(
        name="preference",
        description=(
            "A lasting preference about work. topic: work_mode (value remote, hybrid or onsite), "
            "company_size (small, medium or large), location (a place, or 'relocation'), industry, role, or "
            "other. avoid: true when the student wants to stay away from the value ('not a fan of big "
            "companies' → company_size large, avoid true). strength: strong for 'only', 'must', 'never', "
            "'dealbreaker', 'absolutely'; else mild."
        ),
        attributes=Preference,
        review=Review.AUTO,
    ),
}

GUIDANCE = (
    "The user is a student; the agent is their career advisor. Only the student's own words are facts "
    "about the student: when the advisor says 'you know Python' or 'you applied to Shopify', record "
    "nothing unless the student states it themselves (a bare 'yes' is not a statement). Negation "
    "matters: 'I don't know Python' is a skill with has=false, never a skill the student has. "
    "Hypotheticals and plans are not facts: 'I might apply to X', 'should I apply to X?', 'if I get an "
    "offer', 'I want to learn Rust' record nothing. Questions record nothing. Quote the student's exact "
    "words. One record per company and status; one per skill."
)
