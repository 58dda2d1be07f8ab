"""The one parser of ISO 8601 times, and the time a front end must give with its zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forethought import InvalidInput
from forethought.domain.limits import check_speaker
from forethought.domain.times import EARLIEST, LATEST, format_time, parse_time, stored_time


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
        ("0001-01-01T00:00:00+01:00", r"is out of range \(accepted: 0001-01-02 to 9999-12-30, UTC\)"),
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


# Every offset a time zone can have (under a day either way), to the minute.
_OFFSETS = st.integers(min_value=-(24 * 60 - 1), max_value=24 * 60 - 1).map(lambda m: timezone(timedelta(minutes=m)))


@pytest.mark.parametrize(
    "value",
    ["9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00+05:00", "9999-12-31T23:00:00-05:00", "0001-01-01"],
)
def test_a_time_at_the_very_ends_of_the_calendar_is_refused_as_out_of_range(value: str) -> None:
    with pytest.raises(InvalidInput, match=r"^occurred_at: '.*' is out of range \(accepted: 0001-01-02 to 9999-12-30"):
        parse_time(value, field="occurred_at")


@settings(max_examples=300, deadline=None)
@given(st.datetimes(timezones=_OFFSETS))
def test_any_zoned_time_parses_into_the_accepted_range_or_is_refused(value: datetime) -> None:
    # The text form, as a client would send it: never an OverflowError, always UTC and in range.
    try:
        parsed = parse_time(value.isoformat(), field="t", zoned=True)
    except InvalidInput as exc:
        assert "is out of range (accepted: 0001-01-02 to 9999-12-30, UTC)" in str(exc)
    else:
        assert EARLIEST <= parsed <= LATEST and parsed.tzinfo is UTC


@settings(max_examples=200, deadline=None)
@given(st.datetimes(min_value=EARLIEST.replace(tzinfo=None), max_value=LATEST.replace(tzinfo=None)), _OFFSETS)
def test_an_accepted_time_survives_every_later_read(value: datetime, zone: timezone) -> None:
    # Shown in any zone, through a POSIX timestamp and back, and in its stored text form.
    accepted = parse_time(value)
    accepted.astimezone(zone)
    datetime.fromtimestamp(accepted.timestamp(), UTC)
    assert stored_time(format_time(accepted)) == accepted


@settings(max_examples=200, deadline=None)
@given(st.datetimes(min_value=datetime.min, max_value=datetime.max))
def test_a_stored_time_reads_back_whatever_it_is(value: datetime) -> None:
    # Rows written before the range was enforced still read.
    assert stored_time(format_time(value.replace(tzinfo=UTC))) == value.replace(tzinfo=UTC)
