"""Dates a query names ("on 13 October 2023", "in December 2023", "in June", "in 2023").

Recall uses them to favour records that occurred in that period: a question about what happened
on a day is most often answered by what was recorded that day. Only explicit calendar dates are
read; relative ones ("last week") would need a reference time the query does not carry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from forethought.domain.times import MONTH_NAMES

__all__ = ["Period", "periods", "read_periods"]

_MONTH_NAMES = MONTH_NAMES
_MONTHS = {name: i for i, names in enumerate(_MONTH_NAMES, start=1) for name in names}
_NAMES = sorted(_MONTHS, key=len, reverse=True)
# With a year, a month name in any case; without one, only capitalised ("I may 2x it" is no date).
_MONTH = r"(?P<month>(?i:" + "|".join(_NAMES) + r"))\.?"
_MONTH_CAP = r"(?P<month>" + "|".join(n.capitalize() for n in _NAMES) + r")\.?"
# A month alone, after a preposition: full names only ("reviewed by Jan" names a person).
_MONTH_ALONE = r"(?P<month>" + "|".join(names[0].capitalize() for names in _MONTH_NAMES) + r")"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_AFTER = r"(?i:in|during|since|until|by|of|early|late|mid|before|after)"
# Tried in order; each match blanks its span so a shorter pattern cannot read it again.
_PATTERNS = [
    re.compile(r"\b(?P<year>(?:19|20)\d\d)-(?P<month>[01]\d)-(?P<day>[0-3]\d)\b"),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s*{_YEAR}\b"),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s*{_YEAR}\b"),
    re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b"),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH_CAP}\b"),
    re.compile(rf"\b{_MONTH_CAP}\s+{_DAY}\b(?!:)"),
    re.compile(rf"\b{_AFTER}\s+{_MONTH_ALONE}\b"),
    re.compile(rf"\b{_AFTER}\s+{_YEAR}\b"),
]


@dataclass(frozen=True)
class Period:
    """A day, a month or a year. A missing year means that day or month in any year."""

    year: int | None = None
    month: int | None = None
    day: int | None = None

    def window(self) -> tuple[datetime, datetime] | None:
        """[start, end) in UTC with a day of slack each side for a day (time zones, late notes);
        None when the year is unknown."""
        if self.year is None:
            return None
        if self.month is None:
            return datetime(self.year, 1, 1, tzinfo=UTC), datetime(self.year + 1, 1, 1, tzinfo=UTC)
        if self.day is None:
            end = datetime(self.year + self.month // 12, self.month % 12 + 1, 1, tzinfo=UTC)
            return datetime(self.year, self.month, 1, tzinfo=UTC), end
        day = datetime(self.year, self.month, self.day, tzinfo=UTC)
        return day - timedelta(days=1), day + timedelta(days=2)

    def contains(self, when: datetime) -> bool:
        span = self.window()
        if span is not None:
            return span[0] <= when < span[1]
        moment = when.astimezone(UTC)
        return moment.month == self.month and (self.day is None or abs(moment.day - self.day) <= 1)


def read_periods(query: str) -> tuple[list[Period], str]:
    """The calendar dates `query` names (in order, without duplicates), and the query with each
    date blanked out (so its numbers are not also read as keywords)."""
    text = query
    found: list[tuple[int, Period]] = []
    for pattern in _PATTERNS:
        for match in pattern.finditer(text):
            period = _period(match.groupdict())
            if period is not None:
                found.append((match.start(), period))
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    ordered = dict.fromkeys(p for _, p in sorted(found, key=lambda item: item[0]))
    return list(ordered), text


def periods(query: str) -> list[Period]:
    """The calendar dates `query` names, in the order found (duplicates dropped)."""
    return read_periods(query)[0]


def _period(groups: dict[str, str | None]) -> Period | None:
    month_text, day_text, year_text = groups.get("month"), groups.get("day"), groups.get("year")
    month = None
    if month_text is not None:
        month = int(month_text) if month_text.isdigit() else _MONTHS[month_text.lower().rstrip(".")]
    year = int(year_text) if year_text else None
    day = int(day_text) if day_text else None
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None:
        if month is None or not 1 <= day <= 31:
            return None
        try:
            datetime(year or 2000, month, day)  # 2000 is a leap year: 29 February stays valid
        except ValueError:
            return None
    return Period(year=year, month=month, day=day)
