"""Dates as ADRs, READMEs and commit trailers write them, read into midnight UTC.

"2023-04-05", "05-04-2023" and "05.04.2023" (day first), "04/05/2023" (month first), "11-April-2023",
"8 Jun 2024", "December 11, 2025", "Sep 5th, 2023", and "January, 2026" (a month: its first day).
A part over 12 settles a numeric order the separator would otherwise decide.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

from forethought.domain.times import MONTH_NAMES

__all__ = ["parse_date"]

_MONTHS = {name: number for number, names in enumerate(MONTH_NAMES, start=1) for name in names}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_DATE_SHAPES = tuple(
    re.compile(pattern, re.I)
    for pattern in (
        r"(?<!\d)(?P<year>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<day>\d{1,2})(?!\d)",  # 2023-04-05
        r"(?<!\d)(?P<a>\d{1,2})(?P<sep>[-/.])(?P<b>\d{1,2})[-/.](?P<year>\d{4})(?!\d)",  # 05-04-2023, 04/05/2023
        rf"(?<![\w]){_DAY}[\s-]+{_MONTH}[\s,-]+(?P<year>\d{{4}})(?!\d)",  # 11-April-2023, 8 Jun 2024
        rf"(?<![\w]){_MONTH}\s+{_DAY},?\s+(?P<year>\d{{4}})(?!\d)",  # December 11, 2025, Sep 5th, 2023
        rf"(?<![\w]){_MONTH}\s*,?\s*(?P<year>\d{{4}})(?!\d)",  # January, 2026 (the month's first day)
        r"(?<!\d)(?P<year>\d{4})-(?P<m>\d{2})(?![\d-])",  # 2023-04
    )
)


def parse_date(value: str | None) -> tuple[datetime, str] | None:
    """The earliest date written in `value` as midnight UTC, with its precision ("day" or
    "month"); None when it holds none ("insert date", "TBD"). Numeric day-month orders follow the
    separator: 05-04-2023 and 05.04.2023 are day first, 04/05/2023 month first, unless a part
    over 12 says otherwise."""
    if not value:
        return None
    best: tuple[int, datetime, str] | None = None
    for shape in _DATE_SHAPES:
        for match in shape.finditer(value):
            found = _date_of(match)
            if found is not None and (best is None or match.start() < best[0]):
                best = (match.start(), *found)
            if found is not None:
                break
    return None if best is None else (best[1], best[2])


def _date_of(match: re.Match[str]) -> tuple[datetime, str] | None:
    parts = match.groupdict()
    year = int(parts["year"])
    precision = "day"
    if parts.get("a"):
        a, b = int(parts["a"]), int(parts["b"])
        day_first = parts["sep"] != "/"
        if (day_first and b > 12) or (not day_first and a > 12):
            day_first = not day_first
        month, day = (b, a) if day_first else (a, b)
    else:
        month = int(parts["m"]) if parts.get("m") else _MONTHS[parts["month"].lower()]
        if parts.get("day"):
            day = int(parts["day"])
        else:
            day, precision = 1, "month"
    try:
        return datetime.combine(date(year, month, day), datetime.min.time(), tzinfo=UTC), precision
    except ValueError:
        return None
