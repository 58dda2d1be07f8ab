"""Reading transcripts into turns, whatever tool wrote them.

Formats (`fmt`): "auto" (detect), "text" (`Speaker: text` lines), "json" (a list of {role,
content | text}, or {"messages": [...]}), "jsonl" (one object a line: message objects, Claude
Code session logs, Codex CLI rollouts), "markdown" (a heading per speaker), "cursor" (Cursor's
chat export). Turn timestamps are kept where the format has them (`Turn.occurred_at`), so what is
remembered from an imported session is dated when it was said, not when it was imported.
`human` names the person in a plain-text chat between named speakers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from forethought.domain import Turn
from forethought.domain.limits import check_speaker
from forethought.errors import InvalidInput
from forethought.pipeline.transcripts.common import MAX_TRANSCRIPT_BYTES, MAX_TURN_CHARS, MAX_TURNS, Parsed
from forethought.pipeline.transcripts.logs import from_objects
from forethought.pipeline.transcripts.markdown import from_cursor, from_headings, looks_like_cursor, looks_like_headings
from forethought.pipeline.transcripts.plain import from_text
from forethought.text.jsontext import load_json

__all__ = ["FORMATS", "MAX_TRANSCRIPT_BYTES", "MAX_TURNS", "parse_transcript", "started_at"]

FORMATS = ("auto", "text", "json", "jsonl", "markdown", "cursor")


def parse_transcript(data: bytes | str, *, fmt: str = "auto", human: str | None = None) -> list[Turn]:
    """The turns of a transcript; InvalidInput (saying what is wrong) for anything unreadable."""
    text = _decode(data)
    if fmt not in FORMATS:
        raise InvalidInput(f"transcript: unknown format {fmt!r} ({', '.join(FORMATS)})")
    parsed = _read(text, fmt, None if human is None else check_speaker(human))
    if not parsed:
        raise InvalidInput("transcript: no turns found")
    if len(parsed) > MAX_TURNS:
        raise InvalidInput(f"transcript: {len(parsed):,} turns, over the limit of {MAX_TURNS:,}")
    for turn in parsed:
        if len(turn.text) > MAX_TURN_CHARS:
            raise InvalidInput(f"transcript: a {turn.role.value} turn is over {MAX_TURN_CHARS:,} characters")
    return [Turn(index=i, role=t.role, speaker=t.speaker, text=t.text, occurred_at=t.at) for i, t in enumerate(parsed)]


def started_at(turns: Sequence[Turn]) -> datetime | None:
    """When a transcript began: its earliest turn time, or None when no turn carries one."""
    times = [t.occurred_at for t in turns if t.occurred_at is not None]
    return min(times) if times else None


def _decode(data: bytes | str) -> str:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_TRANSCRIPT_BYTES:
        raise InvalidInput(f"transcript: over the limit of {MAX_TRANSCRIPT_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("transcript: not valid UTF-8") from None
    if "\x00" in text:
        raise InvalidInput("transcript: contains a NUL byte")
    return text.removeprefix("\ufeff")


def _read(text: str, fmt: str, human: str | None) -> list[Parsed]:
    stripped = text.lstrip()
    if fmt == "json" or (fmt == "auto" and stripped.startswith("[")):
        return _from_json(_load(text))
    if fmt == "auto" and stripped.startswith("{"):
        try:  # one document, parsed once; JSON Lines stop at the first line's end
            whole = load_json(text, what="transcript")
        except json.JSONDecodeError:
            return from_objects(_lines(text))
        return _from_json(whole) if isinstance(whole, dict) and "messages" in whole else from_objects([whole])
    if fmt == "auto":
        fmt = "cursor" if looks_like_cursor(text) else "markdown" if looks_like_headings(text) else "text"
    if fmt == "jsonl":
        return from_objects(_lines(text))
    if fmt == "cursor":
        return from_cursor(text)
    if fmt == "markdown":
        return from_headings(text)
    return from_text(text, human=human)


def _load(text: str) -> Any:
    try:
        return load_json(text, what="transcript")
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"transcript: not JSON ({exc.msg} at line {exc.lineno})") from None


def _from_json(loaded: Any) -> list[Parsed]:
    items = loaded.get("messages") if isinstance(loaded, dict) else loaded
    if not isinstance(items, list):
        raise InvalidInput("transcript: expected a list of messages")
    return from_objects(items)


def _lines(text: str) -> list[Any]:
    items = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                items.append(load_json(line, what=f"transcript: line {number}"))
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"transcript: line {number} is not JSON ({exc.msg})") from None
    return items
