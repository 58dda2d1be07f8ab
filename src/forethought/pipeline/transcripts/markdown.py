"""Markdown chats: Cursor's chat export and transcripts with one heading per speaker.

- **Cursor** ("Export chat"): `# Title`, `_Exported on 3/4/2026 at 10:12:33 GMT+1 from Cursor
  (1.2.4)_`, then blocks separated by `---` lines, each opening with `**User**` or `**Cursor**`.
- **Headings**: `## User` / `## Assistant` (any level, any role-like name: `### You`,
  `## ChatGPT`, `## Claude`), the turn's text below.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from forethought.domain import Role
from forethought.domain.times import check_time_range
from forethought.errors import InvalidInput
from forethought.pipeline.transcripts.common import Parsed, agent_like

__all__ = ["from_cursor", "from_headings", "looks_like_cursor", "looks_like_headings"]

_CURSOR_SPEAKER = re.compile(r"^\*\*(User|Cursor|Assistant|You)\*\*\s*$", re.MULTILINE)
_EXPORTED = re.compile(
    r"(?a)_Exported on (\d{1,2})/(\d{1,2})/(\d{4}) at (\d{1,2}):(\d{2}):(\d{2})"
    r"(?: ?([AP]M))?(?: GMT([+-]\d{1,2})(?::?(\d{2}))?)?"
)
_HEADING = re.compile(r"^#{1,4}\s+(User|You|Human|Me|Assistant|AI|ChatGPT|Claude|Cursor|Copilot|Gemini|Agent)\s*:?\s*$",
                      re.MULTILINE | re.IGNORECASE)  # fmt: skip
_FENCE = re.compile(r"^(```|~~~)", re.MULTILINE)


def looks_like_cursor(text: str) -> bool:
    return bool(_CURSOR_SPEAKER.search(text)) and ("from Cursor" in text[:2000] or "\n---\n" in text)


def looks_like_headings(text: str) -> bool:
    return len(_HEADING.findall(text)) >= 2


def from_cursor(text: str) -> list[Parsed]:
    at = _exported_at(text)
    marks = list(_CURSOR_SPEAKER.finditer(text))
    turns = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = _strip_separator(text[mark.end() : end])
        if body:
            role = Role.AGENT if mark.group(1) in ("Cursor", "Assistant") else Role.USER
            turns.append(Parsed(role, body, None, at))
    return turns


def from_headings(text: str) -> list[Parsed]:
    marks = [m for m in _HEADING.finditer(text) if not _inside_fence(text, m.start())]
    turns = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = _strip_separator(text[mark.end() : end])
        if body:
            name = mark.group(1)
            role = Role.AGENT if agent_like(name) else Role.USER
            turns.append(Parsed(role, body, None, None))
    return turns


def _strip_separator(body: str) -> str:
    """A block's text without the `---` rule that ends it."""
    lines = body.strip().splitlines()
    while lines and lines[-1].strip() in ("---", "***", "___"):
        lines.pop()
    return "\n".join(lines).strip()


def _inside_fence(text: str, position: int) -> bool:
    return len(_FENCE.findall(text, 0, position)) % 2 == 1


def _exported_at(text: str) -> datetime | None:
    """The export time Cursor writes under the title (month/day/year, the exporter's zone)."""
    match = _EXPORTED.search(text[:2000])
    if match is None:
        return None
    month, day, year, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    meridiem, offset_h, offset_m = match.group(7), match.group(8), match.group(9)
    if meridiem == "PM" and hour < 12:
        hour += 12
    elif meridiem == "AM" and hour == 12:
        hour = 0
    hours = int(offset_h) if offset_h else 0
    minutes = int(offset_m) if offset_m else 0
    try:  # an impossible date or offset, or one outside the accepted range, is no export time
        zone = timezone(timedelta(hours=hours, minutes=minutes if hours >= 0 else -minutes)) if offset_h else UTC
        return check_time_range(datetime(year, month, day, hour, minute, second, tzinfo=zone))
    except (ValueError, InvalidInput):
        return None
