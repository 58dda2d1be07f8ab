"""Timestamps: every stored time is an aware UTC datetime; text forms are ISO 8601.

Accepted range: a time given to Forethought must lie, in UTC, between `EARLIEST` and `LATEST`:
Python's datetime range less one day at each end. The day of slack is what keeps every later read
of a stored time safe: shown in any time zone (offsets stay under a day), turned into a float
POSIX timestamp and back (a microsecond before year 10000 rounds up to it), or compared with a
day's window. Times read back from the database are not checked again (`stored_time`), so a row
written before the range was enforced still reads.
"""

from __future__ import annotations

from datetime import UTC, datetime

from forethought.errors import InvalidInput

__all__ = [
    "EARLIEST",
    "LATEST",
    "MAX_TIME_CHARS",
    "MONTH_NAMES",
    "check_time_range",
    "format_time",
    "parse_time",
    "stored_time",
    "utcnow",
]

# Each month's full name first, then its abbreviations (January first).
MONTH_NAMES: tuple[tuple[str, ...], ...] = (
    ("january", "jan"),
    ("february", "feb"),
    ("march", "mar"),
    ("april", "apr"),
    ("may",),
    ("june", "jun"),
    ("july", "jul"),
    ("august", "aug"),
    ("september", "sep", "sept"),
    ("october", "oct"),
    ("november", "nov"),
    ("december", "dec"),
)

MAX_TIME_CHARS = 64  # far longer than any ISO 8601 timestamp; longer text is refused unread
EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
LATEST = datetime(9999, 12, 30, 23, 59, 59, 999999, tzinfo=UTC)
_RANGE = "accepted: 0001-01-02 to 9999-12-30, UTC"
_EXAMPLE = "e.g. 2024-05-01 or 2024-05-01T09:30:00Z"
_ZONED_EXAMPLE = "e.g. 2024-05-01T09:30:00Z or 2024-05-01T11:30:00+02:00"


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_time(value: str | datetime, *, field: str = "time", zoned: bool = False) -> datetime:
    """Parse an ISO 8601 timestamp (or a date) into UTC; naive values are taken as UTC, or
    refused with `zoned` (a time that must say its time zone, such as when a session happened).

    Raises InvalidInput with the field name on anything unparseable or outside the accepted range.
    """
    example = _ZONED_EXAMPLE if zoned else _EXAMPLE
    parsed = value if isinstance(value, datetime) else _parse_text(value, field=field, example=example)
    shown = "the time given" if isinstance(value, datetime) else repr(value.strip())
    if parsed.tzinfo is None:
        if zoned:
            raise InvalidInput(f"{field}: {shown} has no time zone; give one ({example})")
        parsed = parsed.replace(tzinfo=UTC)
    return check_time_range(parsed, field=field, shown=shown)


def check_time_range(value: datetime, *, field: str = "time", shown: str = "the time given") -> datetime:
    """`value` (aware; naive is taken as UTC) in UTC, or InvalidInput when outside the accepted range."""
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    try:
        utc = aware.astimezone(UTC)
    except (OverflowError, ValueError):  # year 1 east of UTC, or year 9999 west of it
        raise InvalidInput(f"{field}: {shown} is out of range ({_RANGE})") from None
    if not EARLIEST <= utc <= LATEST:
        raise InvalidInput(f"{field}: {shown} is out of range ({_RANGE})")
    return utc


def stored_time(text: str) -> datetime:
    """A time read back from the database (its canonical form), not range-checked: what was
    stored must always read."""
    parsed = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


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
