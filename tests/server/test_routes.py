"""Every route's happy path, through the same façade the CLI uses."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

import forethought
from forethought import Forethought, Status
from tests.server.conftest import Api

SESSION = """User: We decided to format dates with date-fns; never use moment.js in this project.
Assistant: Understood.
User: The staging database is read-only; never write test data there.
"""
# Two named people: without `human` both are people; with it, only Rita's rules are hers to make.
NAMED = """Kwame: We always vendor the exporter's wheels.
Rita: We decided to pin numpy below 2 for the exporter.
Kwame: Noted, I will pin it.
Rita: Never run the exporter against the production bucket.
"""


def _retain(api: Api, text: str, **extra: object) -> dict[str, object]:
    response = api.post(api.url("project", "tillpoint", "/records"), json={"text": text, **extra})
    assert response.status_code in (200, 201), response.text
    record: dict[str, object] = response.json()["record"]
    return record


def test_health_and_ready_need_no_key(client: TestClient, memory: Forethought) -> None:
    assert client.get("/health").json() == {"status": "ok", "version": forethought.__version__}
    ready = client.get("/ready")
    assert ready.status_code == 200
    body = ready.json()
    assert body["status"] == "ready" and body["mode"] == "heuristic" and body["heuristic"] is True
    assert body["store"]["kind"] == memory.store.stats()["kind"] in ("sqlite", "postgresql")


def test_keys_create_list_revoke(api: Api, memory: Forethought) -> None:
    made = api.post("/v1/keys", json={"name": "ci"})
    assert made.status_code == 201
    body = made.json()
    assert body["workspace"] == "acme" and body["name"] == "ci" and body["key"].startswith("ft_")
    listed = api.get("/v1/keys").json()
    assert {k["id"] for k in listed["items"]} == {api.key_id, body["id"]}
    assert all("key" not in k for k in listed["items"])  # shown once, never again
    revoked = api.delete(f"/v1/keys/{body['id']}")
    assert revoked.status_code == 200 and revoked.json()["active"] is False
    assert memory.authenticate(body["key"]) is None
    assert api.client.get("/v1/keys", headers={"Authorization": f"Bearer {body['key']}"}).status_code == 401


def test_key_without_body_gets_the_default_name(api: Api) -> None:
    assert api.post("/v1/keys").json()["name"] == "default"


def test_subjects_list_the_apps_spaces_of_the_workspace(api: Api) -> None:
    _retain(api, "Use Postgres for the ledger service.", kind="decision")
    api.post(api.url("career", "maya", "/records"), json={"text": "Maya knows Python.", "kind": "skill"})
    projects = api.get("/v1/apps/project/subjects").json()
    assert [s["subject_id"] for s in projects["items"]] == ["tillpoint"]
    assert projects["items"][0]["app"] == "project"
    assert [s["subject_id"] for s in api.get("/v1/apps/career/subjects").json()["items"]] == ["maya"]
    assert api.get("/v1/apps/support/subjects").json() == {"items": [], "next_cursor": None}


def test_records_lifecycle(api: Api) -> None:
    first = _retain(api, "Releases ship on Tuesday.", kind="deployment", occurred_at="2026-03-01", tags=["release"])
    assert first["status"] == "active" and first["tags"] == ["release"] and "space_id" not in first
    url = api.url("project", "tillpoint", "/records")
    assert api.get(f"{url}/{first['id']}").json()["statement"] == "Releases ship on Tuesday."
    assert api.get(f"{url}/{first['handle']}").json()["id"] == first["id"]  # handles work too
    newer = api.post(
        f"{url}/{first['id']}/supersede", json={"text": "Releases ship on Thursday.", "occurred_at": "2026-04-01"}
    )
    assert newer.status_code == 201 and newer.json()["supersedes"] == [first["id"]]
    history = api.get(f"{url}/{first['id']}/history").json()
    assert [r["statement"] for r in history["chain"]] == ["Releases ship on Tuesday.", "Releases ship on Thursday."]
    assert {e["action"] for e in history["events"]} >= {"created", "status_changed"}
    assert all(e["actor"] == f"key:{api.key_id}" for e in history["events"])  # the audit trail names the key
    listed = api.get(url).json()["items"]
    assert [r["statement"] for r in listed] == ["Releases ship on Thursday."]
    every = api.get(url, params={"status": ["active", "superseded"]}).json()["items"]
    assert len(every) == 2
    retracted = api.post(f"{url}/{newer.json()['id']}/retract", json={"why": "the team never agreed"})
    assert retracted.json()["status"] == "retracted"
    forgotten = api.delete(f"{url}/{first['id']}")
    assert forgotten.json() == {"forgotten": 1, "purged": True}
    assert api.get(f"{url}/{first['id']}").status_code == 404


def test_retain_is_idempotent_by_external_id(api: Api) -> None:
    url = api.url("project", "tillpoint", "/records")
    body = {"text": "Use Postgres for the ledger service.", "kind": "decision", "external_id": "adr-7"}
    first = api.post(url, json=body)
    again = api.post(url, json=body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["created"] is False and again.json()["record"]["id"] == first.json()["record"]["id"]
    clash = api.post(url, json={**body, "text": "Use MySQL."})
    assert clash.status_code == 409 and clash.json()["error"]["code"] == "conflict"


def test_kind_filter(api: Api) -> None:
    _retain(api, "Use Postgres for the ledger service.", kind="decision")
    _retain(api, "Create PrismaClient once in src/lib/db.ts.", kind="convention")
    found = api.get(api.url("project", "tillpoint", "/records"), params={"kind": "convention"}).json()["items"]
    assert [r["kind"] for r in found] == ["convention"]


def test_sessions_submit_and_inbox_review(api: Api) -> None:
    base = api.url("project", "tillpoint")
    submitted = api.post(f"{base}/sessions", json={"title": "dates", "text": SESSION})
    assert submitted.status_code == 201, submitted.text
    body = submitted.json()
    assert body["mode"] == "heuristic" and body["heuristic"] is True
    assert len(body["session"]["turns"]) == 3
    pending = api.get(f"{base}/inbox").json()["items"]
    assert pending and all(r["status"] == "candidate" for r in pending)
    one, second, *_ = pending  # the transcript holds two decisions
    approved = api.post(f"{base}/inbox/{one['id']}/approve")
    assert approved.status_code == 200 and approved.json()["status"] == "active"
    edited = api.post(f"{base}/inbox/{second['id']}/edit", json={"text": "Never write test data to staging."})
    assert edited.status_code == 201 and edited.json()["version"] == 2
    rejected = api.post(f"{base}/inbox/{edited.json()['id']}/reject", json={"reason": "duplicate"})
    assert rejected.json()["status"] == "rejected"
    sessions = api.get(f"{base}/sessions").json()["items"]
    assert [s["id"] for s in sessions] == [body["session"]["id"]]


def test_sessions_accept_messages(api: Api) -> None:
    messages = [
        {"role": "user", "content": "Remember that I prefer short answers."},
        {"role": "assistant", "content": "Noted."},
    ]
    made = api.post(api.url("generic", "me", "/sessions"), json={"title": "chat", "messages": messages})
    assert made.status_code == 201, made.text
    assert [t["role"] for t in made.json()["session"]["turns"]] == ["user", "agent"]
    assert made.json()["items"][0]["outcome"] in ("approved", "pending")


def test_sessions_take_the_person_and_when_it_happened(api: Api) -> None:
    base = api.url("project", "wharf")
    body = {"title": "chat", "text": NAMED, "human": " Rita ", "occurred_at": "2026-02-09T15:30:00+01:00"}
    made = api.post(f"{base}/sessions", json=body)
    assert made.status_code == 201, made.text
    session = made.json()["session"]
    when = datetime(2026, 2, 9, 14, 30, tzinfo=UTC)
    assert datetime.fromisoformat(session["created_at"]) == when
    assert [(t["role"], t["speaker"]) for t in session["turns"]][:2] == [("agent", "Kwame"), ("user", "Rita")]
    records = [i["record"] for i in made.json()["items"]]
    assert [r["statement"] for r in records] == ["We decided to pin numpy below 2 for the exporter."]
    assert all(r["provenance"]["asserted_by"] == "user" for r in records)
    assert all(datetime.fromisoformat(r["occurred_at"]) == when for r in records)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"occurred_at": "2026-02-09T14:30"}, "occurred_at: '2026-02-09T14:30' has no time zone; give one (e.g."),
        ({"occurred_at": "2026-02-09"}, "occurred_at: '2026-02-09' has no time zone"),
        ({"occurred_at": "next tuesday"}, "occurred_at: 'next tuesday' is not an ISO 8601 timestamp"),
        ({"occurred_at": 1770647400}, "occurred_at: Input should be a valid string"),
        ({"human": "   "}, "human: String should have at least 1 character"),
        ({"human": "R" * 81}, "human: String should have at most 80 characters"),
        ({"human": "Ri\x1bta"}, "human: contains control characters"),
    ],
)
def test_sessions_refuse_a_bad_person_or_time_and_store_nothing(
    api: Api, extra: dict[str, object], message: str
) -> None:
    base = api.url("project", "wharf")
    refused = api.post(f"{base}/sessions", json={"title": "chat", "text": NAMED, **extra})
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["message"].startswith(message), refused.text
    assert "Traceback" not in refused.text
    assert api.get(f"{base}/sessions").json()["items"] == []
    assert api.get(f"{base}/inbox").json()["items"] == []


def test_approve_all(api: Api) -> None:
    base = api.url("project", "tillpoint")
    api.post(f"{base}/sessions", json={"title": "dates", "text": SESSION})
    done = api.post(f"{base}/inbox/approve-all", json={"high_confidence": False})
    assert done.status_code == 200
    approved = done.json()["approved"]
    assert approved and all(r["status"] == "active" for r in approved)
    for left in api.get(f"{base}/inbox").json()["items"]:  # only what bulk approval must not take
        assert left["flags"] or (left["relation"] or {}).get("label") == "conflicts"


def test_recall_brief_check_ask(api: Api) -> None:
    _retain(api, "Use Postgres for the ledger service.", kind="decision", tags=["db"])
    _retain(
        api,
        "Format dates with date-fns; never use moment.js.",
        kind="decision",
        check={"forbid": ["from ['\"]moment['\"]"]},
    )
    base = api.url("project", "tillpoint")
    recall = api.post(f"{base}/recall", json={"query": "which database for the ledger?", "k": 3}).json()
    assert recall["hits"][0]["record"]["statement"] == "Use Postgres for the ledger service."
    assert recall["hits"][0]["why"] and recall["hits"][0]["explain"]
    brief = api.post(f"{base}/brief", json={"task": "add a table to the ledger database"}).json()
    assert brief["mode"] == "heuristic" and brief["heuristic"] is True and "block" in brief
    check = api.post(f"{base}/check", json={"draft": "import moment from 'moment'"}).json()
    assert check["heuristic"] is True and check["clean"] is False
    assert check["violations"][0]["excerpt"]
    answer = api.post(f"{base}/ask", json={"question": "which database does the ledger use?"}).json()
    assert answer["heuristic"] is True and answer["citations"]


def test_turns_and_traces(api: Api, memory: Forethought) -> None:
    _retain(api, "Use Postgres for the ledger service.", kind="decision", tags=["db"])
    base = api.url("project", "tillpoint")
    turn = api.post(f"{base}/turns", json={"message": "Which database should the ledger use?"})
    assert turn.status_code == 200, turn.text
    body = turn.json()
    assert body["heuristic"] is True and body["mode"] == "heuristic" and body["blocked"] is False
    assert body["reply"] and body["session_id"] and body["trace_id"]
    again = api.post(f"{base}/turns", json={"message": "And for the cache?", "session_id": body["session_id"]})
    assert again.json()["session_id"] == body["session_id"]
    trace = api.get(f"{base}/traces/{body['trace_id']}").json()
    assert trace["id"] == body["trace_id"] and "space_id" not in trace
    assert [s["name"] for s in trace["stages"]][:2] == ["identity", "persist_message"]
    traces = api.get(f"{base}/traces").json()["items"]
    assert [t["id"] for t in traces] == [again.json()["trace_id"], body["trace_id"]]
    key = memory.scope("project", "tillpoint", workspace="acme")
    assert len(memory.store.sessions.get(memory.space(key).id, body["session_id"]).turns) == 4


def test_audit(api: Api) -> None:
    first = _retain(api, "Use Postgres for the ledger service.", kind="decision")
    events = api.get(api.url("project", "tillpoint", "/audit")).json()["items"]
    assert events[0]["action"] == "created" and events[0]["record_id"] == first["id"]
    only = api.get(api.url("project", "tillpoint", "/audit"), params={"record_id": first["id"]}).json()["items"]
    assert [e["record_id"] for e in only] == [first["id"]]


def test_retain_as_candidate_goes_to_the_inbox(api: Api) -> None:
    made = _retain(api, "Deploys need two approvals.", kind="deployment", status="candidate")
    inbox = api.get(api.url("project", "tillpoint", "/inbox")).json()["items"]
    assert [r["id"] for r in inbox] == [made["id"]]
    assert made["status"] == Status.CANDIDATE.value


def test_a_session_reads_back_with_its_turns(api: Api, other: Api) -> None:
    base = api.url("project", "tillpoint")
    made = api.post(f"{base}/sessions", json={"title": "dates", "text": SESSION}).json()["session"]
    listed = api.get(f"{base}/sessions").json()["items"]
    assert listed == [{k: made[k] for k in ("id", "title", "source", "created_at")} | {"turn_count": 3}]
    one = api.get(f"{base}/sessions/{made['id']}")
    assert one.status_code == 200 and one.json() == made
    assert other.get(other.url("project", "tillpoint", f"/sessions/{made['id']}")).status_code == 404
    assert api.get(f"{base}/sessions/01NOSUCHSESSION").json()["error"]["code"] == "not_found"


def test_lists_page_with_cursors_without_gaps_or_repeats(api: Api) -> None:
    base = api.url("generic", "pages")
    made = [api.post(f"{base}/records", json={"text": f"fact number {i}"}).json()["record"]["id"] for i in range(7)]
    seen: list[str] = []
    cursor = None
    while True:
        page = api.get(f"{base}/records", params={"limit": 3, **({"cursor": cursor} if cursor else {})}).json()
        seen += [r["id"] for r in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == made
    bad = api.get(f"{base}/records", params={"cursor": "!!not-a-cursor!!"})
    assert bad.status_code == 422 and "cursor" in bad.json()["error"]["message"]


def test_a_conflicting_candidate_needs_a_choice_then_supersedes(api: Api) -> None:
    base = api.url("career", "ana")
    first = api.post(f"{base}/sessions", json={"title": "a", "text": "user: I know Python well, three years of it."})
    (had,) = first.json()["items"]
    later = api.post(f"{base}/sessions", json={"title": "b", "text": "user: Honestly, I don't know Python at all."})
    (hasnt,) = later.json()["items"]
    assert hasnt["relation"] == "conflicts" and hasnt["target_id"] == had["record"]["id"]
    refused = api.post(f"{base}/inbox/{hasnt['record']['id']}/approve")
    assert refused.status_code == 422 and "conflicts with" in refused.json()["error"]["message"]
    done = api.post(f"{base}/inbox/{hasnt['record']['id']}/approve", json={"conflict": "supersede"})
    assert done.status_code == 200 and done.json()["status"] == "active"
    assert api.get(f"{base}/records/{had['record']['id']}").json()["status"] == "superseded"


def test_metrics_count_requests_turns_and_memory(api: Api) -> None:
    api.post(api.url("generic", "m", "/records"), json={"text": "metrics canary fact"})
    api.post(api.url("generic", "m", "/turns"), json={"message": "hello"})
    text = api.client.get("/metrics").text
    assert 'route="/v1/apps/{app}/subjects/{subject_id}/records"' in text
    assert "forethought_turns_total" in text and 'status="active"' in text
    assert "metrics canary" not in text and api.workspace not in text


def test_a_reviewer_can_name_the_record_a_candidate_replaces(api: Api, other: Api) -> None:
    base = api.url("project", "tp")
    old = api.post(f"{base}/records", json={"text": "Deploys go through Jenkins.", "kind": "decision"}).json()
    new = api.post(
        f"{base}/records",
        json={"text": "Deploys go through GitHub Actions.", "kind": "decision", "status": "candidate"},
    ).json()
    old_id, new_id = old["record"]["id"], new["record"]["id"]
    assert api.post(f"{base}/inbox/{new_id}/supersede", json={"target": new_id}).status_code == 422
    foreign = other.post(other.url("project", "tp", f"/inbox/{new_id}/supersede"), json={"target": old_id})
    assert foreign.status_code == 404
    done = api.post(f"{base}/inbox/{new_id}/supersede", json={"target": old["record"]["handle"]})
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "active"
    replaced = api.get(f"{base}/records/{old_id}").json()
    assert replaced["status"] == "superseded" and replaced["superseded_by"] == new_id
    again = api.post(f"{base}/inbox/{new_id}/supersede", json={"target": old_id})
    assert again.status_code == 422 and "superseded" in again.json()["error"]["message"]


def test_workspace_says_who_the_key_is(api: Api, other: Api) -> None:
    api.post(api.url("career", "ana", "/records"), json={"text": "Ana knows SQL."})
    mine = api.get("/v1/workspace").json()
    assert mine["workspace"] == api.workspace and mine["key_id"] == api.key_id and mine["mode"] == "heuristic"
    counts = {a["app"]: a["subjects"] for a in mine["apps"]}
    assert counts["career"] == 1 and counts["support"] == 0
    theirs = other.get("/v1/workspace").json()
    assert theirs["workspace"] == other.workspace and all(a["subjects"] == 0 for a in theirs["apps"])
