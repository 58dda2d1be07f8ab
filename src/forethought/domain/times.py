"""Timestamps: every stored time is an aware UTC datetime; text forms are ISO 8601."""

from __future__ import annotations

from datetime import UTC, datetime

from forethought.errors import InvalidInput

__all__ = ["format_time", "parse_time", "utcnow"]


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_time(value: str | datetime, *, field: str = "time") -> datetime:
    """Parse an ISO 8601 timestamp (or a date); naive values are taken as UTC.

    Raises InvalidInput with the field name on anything unparseable.
    """
    if isinstance(value, datetime):
        parsed = value
    else:
        text = value.strip()
        if not text:
            raise InvalidInput(f"{field}: empty timestamp")
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            raise InvalidInput(
                f"{field}: {value!r} is not an ISO 8601 timestamp (e.g. 2024-05-01 or 2024-05-01T09:30:00Z)"
            ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def format_time(value: datetime) -> str:
    """The canonical stored form: UTC, microseconds, sortable as text."""
    v = value.astimezone(UTC)
    # Formatted by hand: strftime("%Y") does not zero-pad years below 1000 on every platform,
    # and stored times must sort correctly as text.
    return f"{v.year:04d}-{v.month:02d}-{v.day:02d}T{v.hour:02d}:{v.minute:02d}:{v.second:02d}.{v.microsecond:06d}Z"
