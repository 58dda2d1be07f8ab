"""Every page is scoped to the logged-in key's workspace: a canary planted in workspace B never
appears on any page of workspace A, even when A guesses B's ids in the URL."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from forethought import Forethought
from tests.web.conftest import Browser, MakeBrowser

CANARY = "CANARY-7f3a: the vault code is 2468"
SUBJECT = "shared-name"  # the same subject id in both workspaces


@dataclass(frozen=True)
class Planted:
    record_id: str
    handle: str
    candidate_id: str
    session_id: str
    trace_id: str


@pytest.fixture
def planted(memory: Forethought) -> Planted:
    """Workspace B's memory: an active canary record, a candidate, a session and a trace."""
    key = memory.scope("generic", SUBJECT, workspace="globex")
    record = memory.retain(key, CANARY, kind="note").record
    submitted = memory.submit_session(key, f"User: We decided {CANARY}.", title=CANARY)
    candidate = next(i.record for i in submitted.result.submission.items if i.outcome == "pending")
    turn = memory.turn(key, f"What is the {CANARY}?")
    return Planted(record.id, record.handle, candidate.id, turn.session_id, turn.trace_id)


def _pages(app: str, subject: str, planted: Planted) -> list[str]:
    base = f"/web/apps/{app}/{subject}"
    return [
        "/web",
        f"{base}/chat",
        f"{base}/chat?session={planted.session_id}",
        f"{base}/chat?trace={planted.trace_id}",
        f"{base}/brief?task=vault+code",
        f"{base}/inbox",
        f"{base}/memory",
        f"{base}/memory?q=vault+code",
        f"{base}/memory?status=all",
        f"{base}/memory?as_of=2099-01-01",
        f"{base}/memory/{planted.record_id}",
        f"{base}/memory/{planted.handle}",
        f"{base}/memory/{planted.candidate_id}",
        f"{base}/activity",
        f"{base}/activity/traces/{planted.trace_id}",
        f"{base}/import",
        f"{base}/import/jobs/{planted.trace_id}/events",
    ]


def test_no_page_of_workspace_a_shows_workspace_b(alice: Browser, memory: Forethought, planted: Planted) -> None:
    # A has memory of its own under the same subject id, so its pages are not merely empty.
    mine = memory.scope("generic", SUBJECT, workspace="acme")
    memory.retain(mine, "Acme's own note about the vault.", kind="note")
    alice.post(f"/web/apps/generic/{SUBJECT}/chat", data={"message": "What about the vault code?"})
    for path in _pages("generic", SUBJECT, planted):
        page = alice.get(path)
        assert page.status_code in (200, 404), path
        assert "CANARY" not in page.text, path
        for secret in (planted.record_id, planted.candidate_id, planted.session_id, planted.trace_id):
            # An id A typed may be echoed back in "not found"; any other would have leaked.
            assert secret in path or secret not in page.text, (path, secret)
    assert "globex" not in alice.get("/web").text


def test_guessed_ids_of_workspace_b_are_not_found(alice: Browser, planted: Planted) -> None:
    base = f"/web/apps/generic/{SUBJECT}"
    for path in (
        f"{base}/memory/{planted.record_id}",
        f"{base}/memory/{planted.handle}",
        f"{base}/activity/traces/{planted.trace_id}",
        f"{base}/chat?session={planted.session_id}",
    ):
        page = alice.get(path)
        assert page.status_code == 404, path
        assert "Traceback" not in page.text


def test_decisions_on_workspace_b_ids_change_nothing(alice: Browser, memory: Forethought, planted: Planted) -> None:
    base = f"/web/apps/generic/{SUBJECT}"
    theirs = memory.scope("generic", SUBJECT, workspace="globex")
    alice.post(f"{base}/inbox/{planted.candidate_id}/approve")
    alice.post(f"{base}/inbox/{planted.candidate_id}/reject")
    alice.post(f"{base}/inbox/{planted.candidate_id}/edit", data={"text": "hijacked"})
    alice.post(f"{base}/memory/{planted.record_id}/supersede", data={"text": "hijacked"})
    alice.post(f"{base}/memory/{planted.record_id}/retract", data={"why": "hijacked"})
    alice.post(f"{base}/chat", data={"message": "hello", "session": planted.session_id})
    assert memory.get(theirs, planted.candidate_id).status.value == "candidate"
    assert memory.get(theirs, planted.record_id).status.value == "active"
    assert [t.text for t in memory.get_session(theirs, planted.session_id).turns][-1] != "hello"
    assert not any("hijacked" in r.statement for r in memory.list_records(theirs, statuses=()))


def test_an_import_of_workspace_b_cannot_be_followed_from_a(
    alice: Browser, app_for: MakeBrowser, memory: Forethought
) -> None:
    bob = app_for("globex")
    started = bob.post(f"/web/apps/generic/{SUBJECT}/import/jobs", data={"text": f"User: remember that {CANARY}"})
    assert started.status_code == 202
    events = started.json()["events"]
    assert re.fullmatch(rf"/web/apps/generic/{SUBJECT}/import/jobs/\w+/events", events)
    refused = alice.get(events)
    assert refused.status_code == 404
    assert "CANARY" not in refused.text
