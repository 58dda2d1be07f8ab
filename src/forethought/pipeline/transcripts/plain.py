"""Plain-text chats: one turn per `Speaker: text` line, continuation lines belong to the turn above.

Speakers are the role names (`User:`, `Assistant:`), plus any other label that starts two or more
lines or reads as an assistant's name (`Agent Rita:`, `Copilot:`) — so a one-off `Note:` inside a
turn stays part of it. Roles of named people: `human` names the person (everyone else is the
assistant side); without it, names that read as an assistant's are the agent and the rest are
people. An optional first line `Date: 2026-03-04 10:12` dates every turn.
"""

from __future__ import annotations

import re

from forethought.domain import Role
from forethought.pipeline.transcripts.common import ROLES, Parsed, agent_like, role_named, timestamp

__all__ = ["from_text"]

_LABEL = re.compile(r"^\s*(?:\*\*)?([A-Za-z][\w .'-]{0,40}?)(?:\*\*)?\s*:\s?(.*)$")
_DATE = re.compile(r"^\s*(?:Date|Started|Time)\s*:\s*(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?\S*)\s*$", re.I)


def from_text(text: str, *, human: str | None = None) -> list[Parsed]:
    lines = text.splitlines()
    at = None
    if lines and (date := _DATE.match(lines[0])):
        at = timestamp(date.group(1).replace(" ", "T"))
        lines = lines[1:]
    labels = [m.group(1).strip() for m in map(_LABEL.match, lines) if m]
    counts: dict[str, int] = {}
    for label in labels:
        counts[label.lower()] = counts.get(label.lower(), 0) + 1
    speakers = {name for name, n in counts.items() if name in ROLES or n >= 2 or (human and name == human.lower())}
    speakers |= {name for name in counts if agent_like(name) and _titled(name, labels)}
    first = next((m for m in map(_LABEL.match, lines) if m), None) if lines and _LABEL.match(lines[0]) else None
    if first is not None:
        speakers.add(first.group(1).strip().lower())  # whoever opens the chat is a speaker
    turns: list[Parsed] = []
    for line in lines:
        match = _LABEL.match(line)
        name = match.group(1).strip() if match else ""
        if match and name.lower() in speakers:
            role = _role_of(name, human)
            turns.append(Parsed(role, match.group(2), None if name.lower() in ROLES else name, at))
        elif turns:
            last = turns[-1]
            turns[-1] = Parsed(last.role, f"{last.text}\n{line}", last.speaker, last.at)
        elif line.strip():
            turns.append(Parsed(Role.USER, line, None, at))
    return [Parsed(t.role, t.text.strip(), t.speaker, t.at) for t in turns if t.text.strip()]


def _role_of(name: str, human: str | None) -> Role:
    if name.lower() in ROLES:
        return role_named(name)
    if human is not None:
        return Role.USER if name.lower() == human.lower() else Role.AGENT
    return Role.AGENT if agent_like(name) else Role.USER


def _titled(name: str, labels: list[str]) -> bool:
    """An assistant-like label written as a name (capitalised), not a sentence's lead-in ("ai:")."""
    return any(label.lower() == name and label[:1].isupper() for label in labels)
