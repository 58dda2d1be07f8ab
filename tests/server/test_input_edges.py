"""Input at the edges of what the API accepts: times at the ends of the calendar, numeric cursors,
deeply nested JSON inside a transcript, a draft as long as the limit. Each is a 422 with a message
(or an answer), never a 500, and nothing accepted can break a later read."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forethought import Forethought
from forethought.domain.limits import MAX_SEQUENCE
from forethought.domain.times import format_time
from forethought.pipeline.check import MAX_DRAFT_CHARS
from forethought.server.pagination import encode_cursor
from forethought.store.postgres import PostgresStore
from tests.server.conftest import Api

EDGE_TIMES = [
    "9999-12-31T23:59:59.999999Z",
    "0001-01-01T00:00:00+05:00",
    "9999-12-31T23:00:00-05:00",
    "0001-01-01T00:00:00Z",
    "9999-12-31",
]
FIXTURES = [HealthCheck.function_scoped_fixture]  # one server for every example is what is wanted
_OUT_OF_RANGE = "is out of range (accepted: 0001-01-02 to 9999-12-30, UTC)"


def _plant_time(memory: Forethought, when: str) -> None:
    """Date every record `when` in the database itself: a row written before the range was enforced."""
    with memory.store.raw() as conn:  # type: ignore[attr-defined]
        if isinstance(memory.store, PostgresStore):
            conn.execute("UPDATE records SET occurred_at = %s", (when,))
            conn.commit()
        else:
            conn.execute("UPDATE records SET occurred_at = ?", (when,))


@pytest.mark.parametrize("when", EDGE_TIMES)
def test_a_time_at_the_ends_of_the_calendar_is_refused_on_every_write(api: Api, when: str) -> None:
    zoned = when if "T" in when else when + "T00:00:00Z"  # a session's time must say its zone
    bodies = [
        ("/records", {"text": "We use tea.", "occurred_at": when}),
        ("/sessions", {"title": "t", "text": "User: We always use tea.", "occurred_at": zoned}),
        ("/recall", {"query": "tea", "as_of": when}),
    ]
    for path, body in bodies:
        response = api.post(api.url("project", "tillpoint", path), json=body)
        assert response.status_code == 422, (path, response.text)
        assert _OUT_OF_RANGE in response.json()["error"]["message"]


@pytest.mark.parametrize(
    "stored", ["9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00.000000Z", "9999-12-30T23:59:59.999999Z"]
)
def test_recall_answers_whatever_date_a_stored_record_has(api: Api, memory: Forethought, stored: str) -> None:
    created = api.post(api.url("project", "tillpoint", "/records"), json={"text": "We always brew tea."})
    assert created.status_code == 201, created.text
    _plant_time(memory, stored)
    response = api.post(api.url("project", "tillpoint", "/recall"), json={"query": "tea"})
    assert response.status_code == 200, response.text
    (hit,) = response.json()["hits"]
    assert "recency #1" in hit["explain"] and hit["record"]["occurred_at"].startswith(stored[:10])


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURES)
@given(st.datetimes(min_value=datetime.min, max_value=datetime.max))
def test_recall_through_the_facade_survives_any_stored_date(memory: Forethought, when: datetime) -> None:
    scope = memory.scope("project", "tillpoint", workspace="acme")
    if not memory.list_records(scope, limit=1):
        memory.retain(scope, "We always brew tea.")
    stored = when.replace(tzinfo=UTC)
    _plant_time(memory, format_time(stored))
    (hit,) = memory.recall(scope, "tea").hits
    assert hit.explain().startswith(("recency", "keyword", "semantic", "statement"))


@settings(max_examples=100, deadline=None, suppress_health_check=FIXTURES)
@given(
    st.integers(min_value=-(24 * 60 - 1), max_value=24 * 60 - 1),
    st.sampled_from([datetime(1, 1, 1), datetime(1, 1, 1, 23, 59), datetime(9999, 12, 31), datetime(9999, 12, 31, 23)]),
)
def test_any_offset_near_either_end_is_a_422(api: Api, minutes: int, base: datetime) -> None:
    when = base.replace(tzinfo=None).isoformat() + _offset(minutes)
    response = api.post(api.url("project", "tillpoint", "/records"), json={"text": "We use tea.", "occurred_at": when})
    assert response.status_code in (201, 422), response.text
    if response.status_code == 422:
        assert _OUT_OF_RANGE in response.json()["error"]["message"]


def _offset(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"{sign}{hours:02d}:{rest:02d}"


@pytest.mark.parametrize(
    "value", ["99999999999999999999999", "\u0661\u0662\u0663", "\u00b2", str(MAX_SEQUENCE + 1), "-1"]
)
def test_an_audit_cursor_that_is_no_sequence_number_is_a_422(api: Api, value: str) -> None:
    response = api.get(api.url("project", "tillpoint", "/audit"), params={"cursor": encode_cursor(value)})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"] == "cursor: not a cursor this API gave out"


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURES)
@given(st.one_of(st.text(max_size=30), st.integers(min_value=0, max_value=10**30).map(str)))
def test_any_audit_cursor_is_answered_or_refused(api: Api, value: str) -> None:
    response = api.get(api.url("project", "tillpoint", "/audit"), params={"cursor": encode_cursor(value) or "x"})
    assert response.status_code in (200, 422), response.text


def test_the_largest_sequence_number_is_still_a_cursor(api: Api) -> None:
    response = api.get(api.url("project", "tillpoint", "/audit"), params={"cursor": encode_cursor(MAX_SEQUENCE)})
    assert response.status_code == 200, response.text


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    "transcript",
    [
        json.dumps({"messages": [{"role": "user", "content": "hi", "extra": json.loads(_nested(500))}]}),
        '{"messages": [{"role": "user", "content": ' + _nested(100_000) + "}]}",
        _nested(100_000),
        "\n".join(['{"type": "user", "message": {"content": "hi"}}', '{"x": ' + _nested(100_000) + "}"]),
    ],
    ids=["field", "content", "whole", "jsonl-line"],
)
def test_deeply_nested_json_in_a_transcript_is_a_422(api: Api, transcript: str) -> None:
    response = api.post(api.url("project", "tillpoint", "/sessions"), json={"title": "deep", "text": transcript})
    assert response.status_code == 422, response.text
    assert "JSON nests deeper than 64 levels" in response.json()["error"]["message"]


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURES)
@given(st.integers(min_value=65, max_value=5_000), st.sampled_from(["[", '{"a":']))
def test_any_depth_over_the_bound_is_refused_alike(api: Api, depth: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    inner = opener * depth + ("1" if opener != "[" else "") + closer * depth
    transcript = '{"messages": [{"role": "user", "content": "hi", "x": ' + inner + "}]}"
    response = api.post(api.url("project", "tillpoint", "/sessions"), json={"title": "deep", "text": transcript})
    assert response.status_code == 422, response.text


@pytest.mark.parametrize("draft", ["x" * MAX_DRAFT_CHARS, "é" * MAX_DRAFT_CHARS, "a" * 100 + " " + "b" * 150_000])
def test_a_draft_as_long_as_the_limit_is_checked(api: Api, draft: str) -> None:
    api.post(api.url("project", "tillpoint", "/records"), json={"text": "We always brew tea."})
    response = api.post(api.url("project", "tillpoint", "/check"), json={"draft": draft})
    assert response.status_code == 200, response.text
    assert response.json()["records_checked"] >= 0


def test_a_draft_over_the_limit_says_the_limit(api: Api) -> None:
    response = api.post(api.url("project", "tillpoint", "/check"), json={"draft": "x" * (MAX_DRAFT_CHARS + 1)})
    assert response.status_code in (413, 422), response.text
    assert f"{MAX_DRAFT_CHARS:,}" in response.text or str(MAX_DRAFT_CHARS) in response.text


def test_a_time_a_day_inside_either_end_is_accepted(api: Api) -> None:
    for when in ("0001-01-02T00:00:00Z", "9999-12-30T23:59:59.999999Z", "9999-12-31T04:59:59+05:00"):
        response = api.post(
            api.url("project", "tillpoint", "/records"), json={"text": f"We use tea {when}.", "occurred_at": when}
        )
        assert response.status_code == 201, response.text
    assert api.post(api.url("project", "tillpoint", "/recall"), json={"query": "tea"}).status_code == 200
