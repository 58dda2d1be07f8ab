"""What every transcript reader shares: limits, role names, timestamps and the parsed-turn type."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from forethought.domain import Role
from forethought.domain.times import check_time_range, parse_time
from forethought.errors import InvalidInput

__all__ = [
    "MAX_TRANSCRIPT_BYTES",
    "MAX_TURNS",
    "MAX_TURN_CHARS",
    "Parsed",
    "agent_like",
    "content_text",
    "role_named",
    "timestamp",
]

MAX_TRANSCRIPT_BYTES = 2 * 1024 * 1024
MAX_TURNS = 5_000
MAX_TURN_CHARS = 50_000

ROLES = {
    "user": Role.USER,
    "human": Role.USER,
    "customer": Role.USER,
    "student": Role.USER,
    "me": Role.USER,
    "you": Role.USER,
    "assistant": Role.AGENT,
    "agent": Role.AGENT,
    "ai": Role.AGENT,
    "bot": Role.AGENT,
    "advisor": Role.AGENT,
    "model": Role.AGENT,
    "claude": Role.AGENT,
    "codex": Role.AGENT,
    "cursor": Role.AGENT,
    "chatgpt": Role.AGENT,
    "gpt": Role.AGENT,
    "copilot": Role.AGENT,
    "gemini": Role.AGENT,
    "tool": Role.TOOL,
    "function": Role.TOOL,
    "system": Role.SYSTEM,
    "developer": Role.SYSTEM,  # a harness's own instructions (Codex), not the person
}
# Words that mark a named speaker as the assistant side ("Agent Rita", "Support bot", "Aide").
_AGENT_WORDS = re.compile(
    r"\b(assistant|agent|ai|bot|advisor|adviser|copilot|chatgpt|gpt|claude|codex|cursor|gemini|aide|support|"
    r"helpdesk|concierge|coach)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Parsed:
    """One turn as a reader found it, before the limits are checked."""

    role: Role
    text: str
    speaker: str | None = None
    at: datetime | None = None


def role_named(name: str) -> Role:
    """The role a role-like label names ("User", "assistant", "Cursor"); USER for anything else."""
    return ROLES.get(name.strip().lower(), Role.USER)


def agent_like(name: str) -> bool:
    """Whether a speaker's name says it is the assistant side."""
    return role_named(name) is Role.AGENT or bool(_AGENT_WORDS.search(name))


def content_text(value: Any, *, keep: frozenset[str] = frozenset({"text", "input_text", "output_text"})) -> str:
    """Message content as text: a string as it is; of a list of parts, the text parts joined
    (tool calls, images and thinking are not what anyone said)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for part in value:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and part.get("type", "text") in keep:
                text = part.get("text")
                if isinstance(text, str):
                    parts.append(text)
        return "\n".join(p for p in parts if p)
    return "" if value is None else str(value)


def timestamp(value: Any) -> datetime | None:
    """A turn's time from an ISO string or epoch seconds/milliseconds; None when absent or unreadable
    (a transcript with a broken timestamp still imports; the session then takes the import time)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        seconds = value / 1000 if value > 10**11 else value
        try:
            return check_time_range(datetime.fromtimestamp(seconds, tz=UTC))
        except (OverflowError, OSError, ValueError, InvalidInput):
            return None
    if isinstance(value, str):
        try:
            return parse_time(value)
        except InvalidInput:
            return None
    return None
