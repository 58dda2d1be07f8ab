"""Timestamps: every stored time is an aware UTC datetime; text forms are ISO 8601."""

from __future__ import annotations

from datetime import UTC, datetime

from forethought.errors import InvalidInput

__all__ = ["MAX_TIME_CHARS", "format_time", "parse_time", "utcnow"]

MAX_TIME_CHARS = 64  # far longer than any ISO 8601 timestamp; longer text is refused unread
_EXAMPLE = "e.g. 2024-05-01 or 2024-05-01T09:30:00Z"
_ZONED_EXAMPLE = "e.g. 2024-05-01T09:30:00Z or 2024-05-01T11:30:00+02:00"


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_time(value: str | datetime, *, field: str = "time", zoned: bool = False) -> datetime:
    """Parse an ISO 8601 timestamp (or a date) into UTC; naive values are taken as UTC, or
    refused with `zoned` (a time that must say its time zone, such as when a session happened).

    Raises InvalidInput with the field name on anything unparseable.
    """
    example = _ZONED_EXAMPLE if zoned else _EXAMPLE
    parsed = value if isinstance(value, datetime) else _parse_text(value, field=field, example=example)
    shown = "the time given" if isinstance(value, datetime) else repr(value.strip())
    if parsed.tzinfo is None:
        if zoned:
            raise InvalidInput(f"{field}: {shown} has no time zone; give one ({example})")
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except OverflowError:  # year 1 east of UTC, or year 9999 west of it
        raise InvalidInput(f"{field}: {shown} is out of range in UTC") from None


def _parse_text(value: str, *, field: str, example: str) -> datetime:
    text = value.strip()
    if not text:
        raise InvalidInput(f"{field}: empty timestamp")
    if len(text) > MAX_TIME_CHARS:
        raise InvalidInput(f"{field}: not an ISO 8601 timestamp ({example})")
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"{field}: {value!r} is not an ISO 8601 timestamp ({example})") from None


def format_time(value: datetime) -> str:
    """The canonical stored form: UTC, microseconds, sortable as text."""
    v = value.astimezone(UTC)
    # Formatted by hand: strftime("%Y") does not zero-pad years below 1000 on every platform,
    # and stored times must sort correctly as text.
    return f"{v.year:04d}-{v.month:02d}-{v.day:02d}T{v.hour:02d}:{v.minute:02d}:{v.second:02d}.{v.microsecond:06d}Z"
