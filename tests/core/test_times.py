"""The one parser of ISO 8601 times, and the time a front end must give with its zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from forethought import InvalidInput
from forethought.domain.limits import check_speaker
from forethought.domain.times import parse_time


def test_a_naive_time_is_utc_unless_a_zone_is_required() -> None:
    assert parse_time("2026-02-09T14:30") == datetime(2026, 2, 9, 14, 30, tzinfo=UTC)
    with pytest.raises(InvalidInput, match=r"^when: '2026-02-09T14:30' has no time zone; give one \(e\.g\."):
        parse_time("2026-02-09T14:30", field="when", zoned=True)
    with pytest.raises(InvalidInput, match="has no time zone"):
        parse_time("2026-02-09", zoned=True)  # a date says no zone either
    with pytest.raises(InvalidInput, match="the time given has no time zone"):
        parse_time(datetime(2026, 2, 9), zoned=True)


def test_a_zoned_time_is_kept_as_the_same_instant_in_utc() -> None:
    plus_two = timezone(timedelta(hours=2))
    assert parse_time("2026-02-09T16:30:00+02:00", zoned=True) == datetime(2026, 2, 9, 14, 30, tzinfo=UTC)
    assert parse_time(" 2026-02-09T14:30Z ", zoned=True) == datetime(2026, 2, 9, 14, 30, tzinfo=UTC)
    assert parse_time(datetime(2026, 2, 9, 16, 30, tzinfo=plus_two), zoned=True).tzinfo is UTC


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "empty timestamp"),
        ("next tuesday", "'next tuesday' is not an ISO 8601 timestamp"),
        ("2026-13-45T10:00Z", "is not an ISO 8601 timestamp"),
        ("0001-01-01T00:00:00+01:00", "is out of range in UTC"),
        ("2026-02-09T10:00Z" * 20, r"^occurred_at: not an ISO 8601 timestamp \(e\.g\."),  # not echoed back
    ],
)
def test_garbage_is_refused_with_the_field_name(value: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_time(value, field="occurred_at", zoned=True)


def test_a_speakers_name_is_trimmed_and_bounded() -> None:
    assert check_speaker("  Maria ") == "Maria"
    with pytest.raises(InvalidInput, match="human: is empty"):
        check_speaker("   ")
    with pytest.raises(InvalidInput, match="human: 81 characters, over the limit of 80"):
        check_speaker("M" * 81)
    with pytest.raises(InvalidInput, match="--human: contains control characters"):
        check_speaker("Ma\x1bria", field="--human")
