"""Reading transcripts: plain "Speaker: text" chats, JSON message lists, and JSON Lines.

Formats (`fmt`): "auto" (detect), "text" (lines starting with a speaker label; a line without
one continues the previous turn), "json" (a list of {role, content}, or {"messages": [...]}),
"jsonl" (one {role, content} object per line; Claude Code / Codex style logs whose objects
carry {"type": "user"|"assistant", "message": {"content": ...}} are understood too).
"""

from __future__ import annotations

import json
import re
from typing import Any

from forethought.domain import Role, Turn
from forethought.errors import InvalidInput

__all__ = ["MAX_TRANSCRIPT_BYTES", "MAX_TURNS", "parse_transcript"]

MAX_TRANSCRIPT_BYTES = 2 * 1024 * 1024
MAX_TURNS = 5_000
MAX_TURN_CHARS = 50_000

_ROLES = {
    "user": Role.USER,
    "human": Role.USER,
    "customer": Role.USER,
    "student": Role.USER,
    "me": Role.USER,
    "assistant": Role.AGENT,
    "agent": Role.AGENT,
    "ai": Role.AGENT,
    "bot": Role.AGENT,
    "advisor": Role.AGENT,
    "model": Role.AGENT,
    "claude": Role.AGENT,
    "codex": Role.AGENT,
    "cursor": Role.AGENT,
    "tool": Role.TOOL,
    "function": Role.TOOL,
    "system": Role.SYSTEM,
}
_LABEL = re.compile(r"^\s*(?:\*\*)?([A-Za-z][\w .'-]{0,40}?)(?:\*\*)?\s*:\s?(.*)$")


def _role(name: str) -> Role:
    return _ROLES.get(name.strip().lower(), Role.USER)


def _content(value: Any) -> str:
    """Message content as text: strings as they are, content-part lists joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in value]
        return "\n".join(p for p in parts if p)
    return "" if value is None else str(value)


def _from_objects(items: list[Any]) -> list[tuple[Role, str | None, str]]:
    turns = []
    for item in items:
        if not isinstance(item, dict):
            raise InvalidInput("transcript: every message must be an object")
        nested = item.get("message")
        message: dict[str, Any] = nested if isinstance(nested, dict) else item
        role = message.get("role") or item.get("type") or item.get("speaker") or "user"
        text = _content(message.get("content", message.get("text")))
        if text.strip():
            speaker = item.get("speaker") if isinstance(item.get("speaker"), str) else None
            turns.append((_role(str(role)), speaker, text))
    return turns


def _from_text(text: str) -> list[tuple[Role, str | None, str]]:
    """Speaker labels are the known role names, plus any other label that starts two or more
    lines (a named person); a one-off "Note:" inside a turn stays part of that turn."""
    lines = text.splitlines()
    labels = [m.group(1).strip() for m in map(_LABEL.match, lines) if m]
    counts = {label.lower(): labels.count(label) for label in labels}
    speakers = {name for name, n in counts.items() if name in _ROLES or n >= 2}
    turns: list[tuple[Role, str | None, str]] = []
    for line in lines:
        match = _LABEL.match(line)
        name = match.group(1).strip() if match else ""
        if match and name.lower() in speakers:
            turns.append((_role(name), None if name.lower() in _ROLES else name, match.group(2)))
        elif turns:
            role, speaker, body = turns[-1]
            turns[-1] = (role, speaker, f"{body}\n{line}")
        elif line.strip():
            turns.append((Role.USER, None, line))
    return [(r, s, b.strip()) for r, s, b in turns if b.strip()]


def parse_transcript(data: bytes | str, *, fmt: str = "auto") -> list[Turn]:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_TRANSCRIPT_BYTES:
        raise InvalidInput(f"transcript: over the limit of {MAX_TRANSCRIPT_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("transcript: not valid UTF-8") from None
    if "\x00" in text:
        raise InvalidInput("transcript: contains a NUL byte")
    stripped = text.lstrip()
    if fmt == "auto":
        fmt = "json" if stripped.startswith(("[", '{"messages"')) else "jsonl" if stripped.startswith("{") else "text"
    if fmt == "json":
        try:
            loaded = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"transcript: not JSON ({exc.msg} at line {exc.lineno})") from None
        items = loaded.get("messages") if isinstance(loaded, dict) else loaded
        if not isinstance(items, list):
            raise InvalidInput("transcript: expected a list of messages")
        parsed = _from_objects(items)
    elif fmt == "jsonl":
        items = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    items.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise InvalidInput(f"transcript: line {number} is not JSON ({exc.msg})") from None
        parsed = _from_objects(items)
    elif fmt == "text":
        parsed = _from_text(text)
    else:
        raise InvalidInput(f"transcript: unknown format {fmt!r} (auto, text, json, jsonl)")
    if not parsed:
        raise InvalidInput("transcript: no turns found")
    if len(parsed) > MAX_TURNS:
        raise InvalidInput(f"transcript: {len(parsed):,} turns, over the limit of {MAX_TURNS:,}")
    for role, _, body in parsed:
        if len(body) > MAX_TURN_CHARS:
            raise InvalidInput(f"transcript: a {role.value} turn is over {MAX_TURN_CHARS:,} characters")
    return [Turn(index=i, role=role, speaker=speaker, text=body) for i, (role, speaker, body) in enumerate(parsed)]
