"""Importing transcripts: planning (formats, several sessions), the page without JavaScript,
and the progress events the page with JavaScript follows, from any worker over one database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from forethought import Forethought, InvalidInput, Role, Scope, SpaceKey
from forethought.embed.hashing import HashingEmbedder
from forethought.server import ServerSettings, create_app
from forethought.web.jobs import LIMITS, WORKER_STOPPED, plan_import
from forethought.web.sessions import SESSION_COOKIE
from tests.conftest import scope_of
from tests.web.conftest import Browser

IMPORT = "/web/apps/generic/notes/import"
NOTES = SpaceKey(workspace="acme", subject_type="generic", subject_id="notes")
TEXT = "User: We decided to use Postgres for the ledger service.\nAssistant: Noted.\n"
WHARF = "/web/apps/project/wharf/import"
# Two named people: without a person's name both are people; with it, only Rita's rules are hers.
NAMED = """Kwame: We always vendor the exporter's wheels.
Rita: We decided to pin numpy below 2 for the exporter.
Kwame: Noted, I will pin it.
Rita: Never run the exporter against the production bucket.
"""
WHEN = datetime(2026, 2, 9, 14, 30, tzinfo=UTC)


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


def test_the_plan_names_the_person_and_dates_every_session() -> None:
    (plain,) = plan_import(NAMED)
    assert {t.role for t in plain.turns} == {Role.USER} and plain.occurred_at is None
    (named,) = plan_import(NAMED, human="Rita", occurred_at=WHEN)
    assert [t.role for t in named.turns] == [Role.AGENT, Role.USER, Role.AGENT, Role.USER]
    assert named.occurred_at == WHEN


def _wharf(memory: Forethought) -> Scope:
    return memory.scope("project", "wharf", workspace="acme")


def _assert_dated_and_the_persons(memory: Forethought) -> None:
    (session,) = memory.list_sessions(_wharf(memory))
    assert session.created_at == WHEN
    pending = memory.inbox(_wharf(memory)).pending
    assert [r.statement for r in pending] == ["We decided to pin numpy below 2 for the exporter."]
    assert all(r.provenance.asserted_by is Role.USER and r.occurred_at == WHEN for r in pending)


def test_the_form_takes_the_persons_name_and_when_it_happened(alice: Browser, memory: Forethought) -> None:
    fields = {"text": NAMED, "human": " Rita ", "occurred_at": "2026-02-09T15:30+01:00"}
    page = alice.post(WHARF, data=fields)
    assert page.status_code == 200, page.text
    assert "To review</dt><dd>1</dd>" in page.text
    _assert_dated_and_the_persons(memory)


def test_an_import_job_takes_the_persons_name_and_when_it_happened(alice: Browser, memory: Forethought) -> None:
    started = alice.post(f"{WHARF}/jobs", data={"text": NAMED, "human": "Rita", "occurred_at": "2026-02-09T14:30Z"})
    assert started.status_code == 202, started.text
    with alice.client.stream("GET", started.json()["events"]) as stream:
        finished = [line for line in stream.iter_lines() if '"finished": true' in line]
    assert finished and '"stage": "done"' in finished[0]
    _assert_dated_and_the_persons(memory)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"occurred_at": "2026-02-09T14:30"}, "when it happened: &#39;2026-02-09T14:30&#39; has no time zone"),
        ({"occurred_at": "9 Feb, half two"}, "when it happened: &#39;9 Feb, half two&#39; is not an ISO 8601"),
        ({"human": "R" * 81}, "person&#39;s name: 81 characters, over the limit of 80"),
    ],
)
def test_a_bad_name_or_date_shows_the_form_again_and_stores_nothing(
    alice: Browser, memory: Forethought, fields: dict[str, str], message: str
) -> None:
    page = alice.post(WHARF, data={"text": NAMED, "title": "exporter", "format": "text", **fields})
    assert page.status_code == 422
    assert message in page.text and 'id="import-error"' in page.text
    assert 'value="exporter"' in page.text and '<option value="text" selected>' in page.text  # what was typed is kept
    assert next(iter(fields.values())) in page.text.replace("&#39;", "'")
    refused = alice.post(f"{WHARF}/jobs", data={"text": NAMED, **fields})
    assert refused.status_code == 422 and message.replace("&#39;", "'") in refused.json()["error"]
    assert memory.list_sessions(_wharf(memory)) == []


@pytest.mark.parametrize("workers", [1, 3])
def test_live_import_progress_whatever_the_number_of_workers(memory: Forethought, workers: int) -> None:
    """The import page follows its progress over server-sent events with one worker or several
    (the job's events are the store's); the form without the script still imports in its request."""
    _, key = memory.create_api_key("acme", name="web")
    app = create_app(memory, ServerSettings(rate_per_second=0, workers=workers))
    with TestClient(app, follow_redirects=True) as client:
        browser = Browser(client, key, "acme")
        browser.login()
        page = browser.get(IMPORT)
        assert page.status_code == 200 and f'data-jobs="{IMPORT}/jobs"' in page.text
        done = browser.post(IMPORT, data={"text": "User: We always deploy on Tuesdays.", "format": "auto"})
        assert done.status_code == 200 and "Import another" in done.text
    assert len(memory.list_sessions(memory.scope("generic", "notes", workspace="acme"))) == 1


def _events(client: TestClient, url: str) -> list[dict[str, object]]:
    with client.stream("GET", url) as stream:
        assert stream.status_code == 200
        return [json.loads(line.removeprefix("data: ")) for line in stream.iter_lines() if line.startswith("data: ")]


@pytest.fixture(params=["sqlite", "postgresql"])
def two_workers(request: pytest.FixtureRequest, db_path: Path) -> Iterator[tuple[Forethought, Forethought]]:
    """Two façades on one database, as two worker processes of `serve --workers 2` open it."""
    target = db_path if request.param == "sqlite" else str(request.getfixturevalue("postgres_dsn"))
    with (
        Forethought.open(target, embedder=HashingEmbedder()) as a,
        Forethought.open(target, embedder=HashingEmbedder()) as b,
    ):
        yield a, b


def test_an_import_started_on_one_worker_is_followed_from_another(two_workers: tuple[Forethought, Forethought]) -> None:
    first, second = two_workers
    _, key = first.create_api_key("acme", name="web")
    settings = ServerSettings(rate_per_second=0, workers=2)
    apps = [create_app(m, settings) for m in two_workers]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as other:
        browser = Browser(one, key, "acme")
        browser.login()
        other.cookies.set(SESSION_COOKIE, one.cookies[SESSION_COOKIE])  # the same browser, another process
        sessions = {"sessions": [{"messages": [{"role": "user", "content": f"We decided rule {i} holds."}]}
                                 for i in range(2)]}  # fmt: skip
        started = browser.post(f"{IMPORT}/jobs", data={"text": json.dumps(sessions)})
        assert started.status_code == 202
        events = _events(other, started.json()["events"])
        assert [e["stage"] for e in events] == ["parse", *["remember"] * 8, "done"]
        assert events[-1]["finished"] is True and events[-1]["percent"] == 100
        assert apps[0].state.web.imports.wait()
        outsider = TestClient(apps[1])
        _, their_key = second.create_api_key("globex", name="web")
        theirs = Browser(outsider, their_key, "globex")
        theirs.login()
        assert outsider.get(started.json()["events"]).status_code == 404  # another workspace: not found
        outsider.close()
    assert len(second.inbox(scope_of(second, NOTES)).pending) == 2


def test_an_import_whose_worker_died_ends_with_a_failed_event(alice: Browser, memory: Forethought) -> None:
    """A job whose process stopped beating (killed mid-import) is reported, not followed for ever."""
    space = memory.scope("generic", "notes", workspace="acme").space()
    long_ago = datetime.now(UTC) - timedelta(minutes=5)
    memory.store.imports.start("01JDEADWORKER0000000000000", space.id, long_ago, LIMITS)
    memory.store.imports.publish(
        "01JDEADWORKER0000000000000", "parse", 10, "1 session(s) read", finished=False, now=long_ago, limits=LIMITS
    )
    events = _events(alice.client, f"{IMPORT}/jobs/01JDEADWORKER0000000000000/events")
    assert [(e["stage"], e["finished"]) for e in events] == [("parse", False), ("failed", True)]
    assert events[-1]["message"] == WORKER_STOPPED and "worker running this import stopped" in WORKER_STOPPED
    again = _events(alice.client, f"{IMPORT}/jobs/01JDEADWORKER0000000000000/events")
    assert again == events  # ended once, for every follower


def test_an_unknown_or_overlong_job_id_is_not_found(alice: Browser) -> None:
    assert alice.get(f"{IMPORT}/jobs/01JNOSUCHJOB00000000000000/events").status_code == 404
    assert alice.get(f"{IMPORT}/jobs/{'x' * 300}/events").status_code == 404


def test_a_subject_with_as_many_running_imports_as_it_may_keep_refuses_another(
    alice: Browser, memory: Forethought
) -> None:
    space = memory.scope("generic", "notes", workspace="acme").space()
    now = datetime.now(UTC) + timedelta(minutes=1)  # alive for a while yet
    for i in range(LIMITS.per_space):
        memory.store.imports.start(f"01JBUSY{i:019d}", space.id, now, LIMITS)
    refused = alice.post(f"{IMPORT}/jobs", data={"text": TEXT})
    assert refused.status_code == 429 and refused.headers["retry-after"] == "10"
    assert "too many imports" in refused.json()["error"]
