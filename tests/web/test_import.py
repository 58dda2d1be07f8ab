"""Importing transcripts: planning (formats, several sessions), the page without JavaScript,
and the progress events the page with JavaScript follows."""

from __future__ import annotations

import json

import pytest

from forethought import Forethought, InvalidInput, SpaceKey
from forethought.web.jobs import plan_import
from tests.conftest import scope_of
from tests.web.conftest import Browser

IMPORT = "/web/apps/generic/notes/import"
NOTES = SpaceKey(workspace="acme", subject_type="generic", subject_id="notes")
TEXT = "User: We decided to use Postgres for the ledger service.\nAssistant: Noted.\n"


def test_a_plain_transcript_is_one_session() -> None:
    plan = plan_import(TEXT, title="ledger")
    assert [(p.title, len(p.turns)) for p in plan] == [("ledger", 2)]


def test_a_file_of_several_sessions_is_planned_as_several() -> None:
    sessions = {"sessions": [{"title": "one", "messages": [{"role": "user", "content": "hi"}]},
                             {"messages": [{"role": "user", "content": "again"}]}]}  # fmt: skip
    assert [p.title for p in plan_import(json.dumps(sessions), title="log")] == ["one", "log (2/2)"]
    lines = [{"sessionId": s, "type": "user", "message": {"content": f"turn {i}"}} for i, s in enumerate("aab")]
    plan = plan_import("\n".join(json.dumps(line) for line in lines), title="log")
    assert [len(p.turns) for p in plan] == [2, 1]


@pytest.mark.parametrize(
    ("data", "fmt", "message"),
    [
        ("   ", "auto", "paste a transcript"),
        ('{"messages": [', "json", "not JSON"),
        ('{"sessions": []}', "auto", "non-empty list"),
        (b"\xff\xfe", "auto", "not valid UTF-8"),
        (TEXT, "yaml", "not one of"),
    ],
)
def test_bad_transcripts_are_refused_before_anything_is_written(data: str | bytes, fmt: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        plan_import(data, fmt=fmt)


def test_the_form_without_javascript_imports_and_shows_the_result(alice: Browser, memory: Forethought) -> None:
    page = alice.post(IMPORT, data={"text": TEXT, "title": "ledger"})
    assert page.status_code == 200
    assert "To review</dt><dd>1</dd>" in page.text
    assert "Open the inbox" in page.text
    assert [r.statement for r in memory.inbox(scope_of(memory, NOTES)).pending] == [
        "We decided to use Postgres for the ledger service."
    ]


def test_an_uploaded_file_is_imported(alice: Browser, memory: Forethought) -> None:
    body = json.dumps({"messages": [{"role": "user", "content": "We decided to ship on Thursdays."}]})
    page = alice.post(IMPORT, files={"file": ("week.json", body.encode(), "application/json")})
    assert page.status_code == 200
    assert memory.list_sessions(scope_of(memory, NOTES))[0].title == "week.json"


def test_bad_input_is_shown_on_the_form(alice: Browser, memory: Forethought) -> None:
    page = alice.post(IMPORT, data={"text": '{"messages": [', "format": "json"})
    assert page.status_code == 422
    assert "transcript: not JSON" in page.text
    assert "{&#34;messages&#34;: [" in page.text  # what was pasted is kept, escaped
    assert memory.list_sessions(scope_of(memory, NOTES)) == []


def test_progress_events_reach_one_hundred_percent(alice: Browser, memory: Forethought) -> None:
    messages = [[{"role": "user", "content": f"We decided rule {i} holds."}] for i in range(3)]
    sessions = {"sessions": [{"messages": m} for m in messages]}
    started = alice.post(f"{IMPORT}/jobs", data={"text": json.dumps(sessions)})
    assert started.status_code == 202
    assert started.json()["inbox"] == "/web/apps/generic/notes/inbox"
    events = []
    with alice.client.stream("GET", started.json()["events"]) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for line in stream.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line.removeprefix("data: ")))
    assert [e["stage"] for e in events] == ["parse", *["remember"] * 12, "done"]
    assert [e["percent"] for e in events] == [10, 17, 25, 32, 40, 47, 55, 62, 70, 77, 85, 92, 100, 100]
    assert [e["message"] for e in events[1:5]] == [
        f"session 1 of 3: {stage}" for stage in ("captured", "extracted", "validated", "filed")
    ]
    assert events[-1]["finished"] is True
    assert len(memory.inbox(scope_of(memory, NOTES)).pending) == 3


def test_a_reconnecting_page_resumes_after_the_last_event_it_saw(alice: Browser) -> None:
    started = alice.post(f"{IMPORT}/jobs", data={"text": TEXT})
    url = started.json()["events"]
    with alice.client.stream("GET", url) as stream:
        first = [line for line in stream.iter_lines() if line.startswith("id: ")]
    with alice.client.stream("GET", url, headers={"Last-Event-ID": "0"}) as stream:
        resumed = [line for line in stream.iter_lines() if line.startswith("id: ")]
    assert first == [f"id: {i}" for i in range(6)]  # parse, four stages, done
    assert resumed == [f"id: {i}" for i in range(1, 6)]


def test_a_bad_transcript_is_refused_before_a_job_starts(alice: Browser) -> None:
    refused = alice.post(f"{IMPORT}/jobs", data={"text": "  "})
    assert refused.status_code == 422
    assert "paste a transcript" in refused.json()["error"]
