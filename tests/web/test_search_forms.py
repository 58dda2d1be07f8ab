"""The brief and search boxes post their text (with the session's CSRF token), so what is typed
there never travels in a URL: not in the history, a Referer or the access log. Links with the
text in their query string still work."""

from __future__ import annotations

import re

import pytest

from forethought import Forethought
from tests.web.conftest import Browser

BASE = "/web/apps/project/tillpoint"
TASK = "pick the database for the ledger service"


@pytest.fixture
def seeded(memory: Forethought) -> None:
    scope = memory.scope("project", "tillpoint", workspace="acme")
    memory.retain(scope, "The ledger service uses Postgres, never MySQL.", kind="decision")


@pytest.mark.parametrize(("path", "form_id"), [("/brief", "brief-form"), ("/memory", "memory-filters")])
def test_the_forms_post_with_the_csrf_token(alice: Browser, path: str, form_id: str) -> None:
    page = alice.get(BASE + path)
    form = re.search(
        rf'<form method="(\w+)" action="{BASE}{path}"[^>]*id="{form_id}">\s*<input type="hidden" name="csrf"', page.text
    )
    assert form is not None and form.group(1) == "post", page.text[:2000]


def test_a_posted_task_is_briefed_like_a_linked_one(alice: Browser, seeded: None) -> None:
    posted = alice.post(f"{BASE}/brief", data={"task": TASK})
    linked = alice.get(f"{BASE}/brief", params={"task": TASK})
    assert posted.status_code == linked.status_code == 200
    assert "The ledger service uses Postgres" in posted.text
    assert posted.url.query == b"" and "task=" not in str(posted.url)


def test_a_posted_search_finds_what_a_linked_one_finds(alice: Browser, seeded: None) -> None:
    posted = alice.post(f"{BASE}/memory", data={"q": "ledger database", "status": "current"})
    assert posted.status_code == 200 and "The ledger service uses Postgres" in posted.text
    assert "ledger database" in posted.text  # the box keeps what was typed
    bad = alice.post(f"{BASE}/memory", data={"q": "x", "kind": "Not A Kind"})
    assert bad.status_code == 422 and "kind:" in bad.text


@pytest.mark.parametrize("path", ["/brief", "/memory"])
def test_a_post_without_the_token_is_refused(alice: Browser, path: str) -> None:
    refused = alice.client.post(BASE + path, data={"task": TASK, "q": TASK})
    assert refused.status_code == 403
