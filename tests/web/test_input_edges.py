"""Input at the edges of what the workspace accepts: sequence numbers in query strings and
headers, deeply nested JSON in an import. Each is a 422 page with a message, never a 500."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forethought import Forethought
from tests.web.conftest import Browser

ACTIVITY = "/web/apps/project/tillpoint/activity"
IMPORT = "/web/apps/generic/notes/import"
TEXT = "User: We decided to use Postgres for the ledger service.\nAssistant: Noted.\n"
FIXTURES = [HealthCheck.function_scoped_fixture]


@pytest.mark.parametrize("before", ["9" * 20, "\u0661\u0662\u0663", "\u00b2", "-1", "1e3", str(2**63)])
def test_an_activity_page_before_no_sequence_number_is_a_422(alice: Browser, before: str) -> None:
    page = alice.get(ACTIVITY, params={"before": before})
    assert page.status_code == 422, page.text
    assert "before: must be a whole number from 0 to 9,223,372,036,854,775,807" in page.text


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURES)
@given(st.one_of(st.text(max_size=25), st.integers(min_value=0, max_value=10**25).map(str)))
def test_any_activity_before_is_a_page_or_a_422(alice: Browser, before: str) -> None:
    page = alice.get(ACTIVITY, params={"before": before})
    assert page.status_code in (200, 422), page.text


def test_the_activity_page_pages_with_an_ascii_number(alice: Browser, memory: Forethought) -> None:
    memory.retain(memory.scope("project", "tillpoint", workspace="acme"), "We always brew tea.")
    assert alice.get(ACTIVITY, params={"before": "1000"}).status_code == 200


@pytest.mark.parametrize("last", [b"\xb2", b"1\xff", b"\xd9\xa1", b"9" * 25, b"-3"])
def test_a_last_event_id_that_is_no_event_id_is_a_422(alice: Browser, last: bytes) -> None:
    started = alice.post(f"{IMPORT}/jobs", data={"text": TEXT})
    url = started.json()["events"]
    response = alice.client.get(url, headers=[("Last-Event-ID", last)])  # raw bytes, as a client may send them
    assert response.status_code == 422, response.text
    assert "Last-Event-ID: must be a whole number" in response.text


@pytest.mark.parametrize(
    "transcript",
    [
        '{"messages": [{"role": "user", "content": ' + "[" * 100_000 + "]" * 100_000 + "}]}",
        "[" * 100_000 + "]" * 100_000,
        '{"sessions": [{"messages": [' + "[" * 5_000 + "]" * 5_000 + "]}]}",
        '{"sessionId": "a", "message": {"content": "hi"}}\n{"sessionId": "b", "x": ' + "[" * 5_000 + "]" * 5_000 + "}",
    ],
    ids=["content", "whole", "sessions", "jsonl"],
)
def test_a_deeply_nested_import_is_a_422_on_the_form_and_for_a_job(alice: Browser, transcript: str) -> None:
    page = alice.post(IMPORT, data={"text": transcript})
    assert page.status_code == 422, page.text[:300]
    assert "JSON nests deeper than 64 levels" in page.text
    job = alice.post(f"{IMPORT}/jobs", data={"text": transcript})
    assert job.status_code == 422 and "JSON nests deeper than 64 levels" in job.json()["error"]
    uploaded = alice.post(IMPORT, files={"file": ("deep.json", transcript.encode(), "application/json")})
    # An uploaded file's brackets are raw in the body: the request's own depth bound may speak first.
    assert uploaded.status_code == 422 and "JSON nests deeper than" in uploaded.text
