"""The career app's heuristic extractor: the student's own sentences in, typed candidates out.

Only user turns are read: the advisor's words never become the student's facts ("You know Python
well" records nothing). Each sentence goes through the rule families (skills, applications,
projects, goals); every candidate quotes the sentence it came from, verbatim, with the session id,
turn index and role. Within a session a fact said twice is one candidate with two quotes; a
skill said first without a level and later with one keeps the level.
"""

from __future__ import annotations

from forethought.apps.career.applications import ApplicationMemory, find_application_facts
from forethought.apps.career.goals import find_goal_facts
from forethought.apps.career.projects import find_project_facts
from forethought.apps.career.skills import find_skill_facts
from forethought.apps.career.text import Found
from forethought.domain import Evidence, Role, Session, Turn
from forethought.domain.candidates import Candidate
from forethought.text.sentences import sentences

__all__ = ["extract"]


def _key(found: Found) -> tuple[object, ...]:
    a = found.attributes.model_dump()
    identity = {
        "skill": ("name", "has"),
        "application": ("company", "role", "status"),
        "project": ("name",),
        "target_role": ("role",),
        "preference": ("topic", "value", "avoid"),
    }[found.kind]
    return (found.kind, *(str(a[name]).casefold() for name in identity))


def _candidate(found: Found, quote: str, session: Session, turn: Turn) -> Candidate:
    return Candidate(
        kind=found.kind,
        statement=found.statement,
        attributes=found.attributes.model_dump(mode="json"),
        evidence=[Evidence(quote=quote, session_id=session.id, turn_index=turn.index, role=turn.role)],
        confidence=found.confidence,
        asserted_by=turn.role,
        tags=list(found.tags),
    )


def _merge(existing: Candidate, found: Found, new: Candidate) -> Candidate:
    evidence = [*existing.evidence, *(e for e in new.evidence if e not in existing.evidence)]
    if found.kind == "skill" and existing.attributes.get("level") == "unknown" != new.attributes.get("level"):
        return new.model_copy(update={"evidence": evidence})
    return existing.model_copy(update={"evidence": evidence})


def extract(session: Session) -> list[Candidate]:
    """Candidates from the student's turns of `session` (see the module docstring)."""
    memory = ApplicationMemory()
    by_key: dict[tuple[object, ...], Candidate] = {}
    for turn in session.turns:
        if turn.role is not Role.USER:
            continue
        for sentence in sentences(turn.text):
            facts = [
                *find_skill_facts(sentence),
                *find_application_facts(sentence, memory),
                *find_project_facts(sentence),
                *find_goal_facts(sentence),
            ]
            for found in facts:
                candidate = _candidate(found, sentence, session, turn)
                key = _key(found)
                by_key[key] = _merge(by_key[key], found, candidate) if key in by_key else candidate
    return list(by_key.values())
