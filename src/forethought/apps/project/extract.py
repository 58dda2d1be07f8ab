"""The project app's heuristic extractor: typed candidates from a coding-agent session.

Deterministic and offline. Each user or agent sentence (outside code blocks) is checked in turn:
questions, deferred ideas ("not in this sprint", "maybe later") and transient state ("I'm on
branch ...", "my local build fails") are skipped, as is an agent talking about its own work ("I'll
...", "Done, I updated ..."); what remains goes through the rules in `rules.py`. Every candidate
quotes its sentence verbatim with the session id, turn index and role; the area comes from the
sentence (or its turn when the sentence alone names no area); rules that name concrete code get
check patterns (`patterns.py`). Tool output is never a source: a failing test is not a decision.
Agent sentences are kept, asserted by the agent (the validator caps their confidence).
"""

from __future__ import annotations

from forethought.apps.project.areas import vote
from forethought.apps.project.patterns import derive_patterns
from forethought.apps.project.rules import classify
from forethought.apps.project.text import (
    body_of,
    is_agent_chatter,
    is_deferred,
    is_question,
    is_transient,
    sentences,
)
from forethought.domain import Evidence, Role, Session, Turn
from forethought.domain.candidates import Candidate

__all__ = ["extract"]

_SOURCES = (Role.USER, Role.AGENT)
# Kinds whose statement is a rule that code can break, so patterns are worth deriving.
_CHECKABLE = frozenset({"decision", "security_constraint", "convention", "api_contract", "deployment"})
_CONFIDENCE = {Role.USER: 0.75, Role.AGENT: 0.5}


def _statement(body: str) -> str:
    text = body.strip().rstrip(" ,;:—-")
    if not text.endswith((".", "!", "?")):
        text += "."
    return text[0].upper() + text[1:]


def _area(body: str, turn: Turn) -> str:
    area = vote(body).best()
    return area if area != "general" else vote(turn.text).best()


def _candidates_from(session: Session, turn: Turn) -> list[Candidate]:
    found: list[Candidate] = []
    for sentence in sentences(turn.text):
        body = body_of(sentence)
        if not body or is_question(body) or is_deferred(body) or is_transient(body):
            continue
        if turn.role is Role.AGENT and is_agent_chatter(body):
            continue
        match = classify(body)
        if match is None:
            continue
        area = _area(body, turn)
        found.append(
            Candidate(
                kind=match.kind,
                statement=_statement(body),
                attributes={**match.attributes, "area": area},
                evidence=[Evidence(quote=sentence, session_id=session.id, turn_index=turn.index, role=turn.role)],
                confidence=_CONFIDENCE.get(turn.role, 0.5),
                asserted_by=turn.role,
                tags=[f"area:{area}"],
                check=derive_patterns(body) if match.kind in _CHECKABLE else None,
            )
        )
    return found


def extract(session: Session) -> list[Candidate]:
    """Candidates from a session's user and agent turns, in order, one per sentence at most."""
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for turn in session.turns:
        if turn.role not in _SOURCES:
            continue
        for candidate in _candidates_from(session, turn):
            key = (candidate.kind, candidate.statement.casefold())
            if key not in seen:
                seen.add(key)
                out.append(candidate)
    return out
