"""The organisation rule set over HTTP: its rulebook and documents per workspace, a project's
overrides (listed, set with a reason, restored), and what another workspace or app gets."""

from __future__ import annotations

from typing import Any

import pytest

from forethought import Forethought
from forethought.projects.org import ORG
from tests.server.conftest import Api, error_message, post_rule

ORG_BASE = "/v1/apps/project/organisation"
SHOP = "/v1/apps/project/subjects/shop"
AGENTS = """# AGENTS.md

## Security

- Never log a customer's card number.
- Always validate webhook signatures before reading the payload.
"""


def test_the_organisation_rulebook_holds_the_workspaces_rules_only(api: Api, other: Api) -> None:
    rule = post_rule(api, subject=ORG, text="Never import moment in any service; use date-fns.")
    project_rule = api.post(f"{SHOP}/records", json={"text": "Use Postgres for the ledger.", "kind": "decision"})
    assert project_rule.status_code == 201
    book = api.get(f"{ORG_BASE}/rulebook").json()
    assert [r["id"] for r in book["rules"]] == [rule["id"]] and "date-fns" in book["text"]
    assert "Postgres" not in book["text"]  # a project's own rule is not the organisation's
    agents = api.get(f"{ORG_BASE}/rulebook", params={"format": "agents"}).json()
    assert agents["text"].startswith("# AGENTS.md") and "date-fns" in agents["text"]
    assert other.get(f"{ORG_BASE}/rulebook").json()["rules"] == []
    assert "format" in error_message(api.get(f"{ORG_BASE}/rulebook", params={"format": "yaml"}), 422)
    assert "as_of" in error_message(api.get(f"{ORG_BASE}/rulebook", params={"as_of": "someday"}), 422)


def test_organisation_documents_wait_in_the_organisations_inbox_once(api: Api, other: Api) -> None:
    files = {"files": [{"path": "AGENTS.md", "text": AGENTS}]}
    done = api.post(f"{ORG_BASE}/documents", json=files)
    assert done.status_code == 200, done.text
    body = done.json()
    assert body["rule_files"] == 1 and body["counts"]["filed"] == 1
    pending = {r["id"] for r in body["pending"]}
    assert pending and all(r["status"] == "candidate" for r in body["pending"])
    inbox = api.get(f"/v1/apps/project/subjects/{ORG}/inbox", params={"limit": 200}).json()["items"]
    assert {i["id"] for i in inbox} == pending
    assert api.get(f"{SHOP}/inbox").json()["items"] == []  # not any project's inbox
    again = api.post(f"{ORG_BASE}/documents", json=files).json()
    assert again["counts"]["known"] == 1 and again["pending"] == []
    assert other.get(f"/v1/apps/project/subjects/{ORG}/inbox").json()["items"] == []
    assert "notes.txt" in error_message(
        api.post(f"{ORG_BASE}/documents", json={"files": [{"path": "notes.txt", "text": "x"}]}), 422
    )
    assert error_message(api.post(f"{ORG_BASE}/documents", json={"files": []}), 422)


def test_a_project_overrides_an_organisation_rule_and_restores_it(api: Api, memory: Forethought) -> None:
    rule = post_rule(api, subject=ORG, text="Never log a customer's e-mail address in any service.")
    task = {"task": "log the customer's e-mail address in the payment handler"}
    assert [u["record"]["id"] for u in api.post(f"{SHOP}/brief", json=task).json()["used"]] == [rule["id"]]
    assert api.get(f"{SHOP}/organisation/overrides").json() == {"items": [], "next_cursor": None}
    why = "the fraud team needs raw e-mails in this one service"
    done = api.post(f"{SHOP}/organisation/overrides/{rule['handle']}", json={"why": why})
    assert done.status_code == 200, done.text
    body = done.json()
    assert body["record"]["id"] == rule["id"] and body["overridden"] is True and body["project"] == "shop"
    assert body["reason"] == why and body["by"] == f"key:{api.key_id}"
    listed = api.get(f"{SHOP}/organisation/overrides").json()["items"]
    assert [(o["record"]["id"], o["reason"], o["overridden"]) for o in listed] == [(rule["id"], why, True)]
    assert api.post(f"{SHOP}/brief", json=task).json()["used"] == []
    assert api.get("/v1/apps/project/subjects/cart/organisation/overrides").json()["items"] == []
    # the mark is in the organisation rule's audit trail, with who and why
    scope = memory.scope("project", ORG, workspace=api.workspace)
    (event,) = [e for e in memory.audit_events(scope, limit=50) if e.details.get("verdict") == "overridden"]
    assert event.record_id == rule["id"] and event.reason == why and event.details["subject"] == "shop"
    restored = api.post(f"{SHOP}/organisation/overrides/{rule['id']}/restore", json={"why": "fraud moved out"})
    assert restored.status_code == 200 and restored.json()["overridden"] is False
    assert api.get(f"{SHOP}/organisation/overrides").json()["items"] == []
    assert [u["record"]["id"] for u in api.post(f"{SHOP}/brief", json=task).json()["used"]] == [rule["id"]]
    again = api.post(f"{SHOP}/organisation/overrides/{rule['id']}/restore", json={"why": "twice"})
    assert "not overridden" in error_message(again, 422)


def test_the_overrides_page_through(api: Api) -> None:
    rules = [
        post_rule(api, subject=ORG, text=f"Never call the {name} service directly; use the gateway.") for name in "abc"
    ]
    for rule in rules:
        assert api.post(f"{SHOP}/organisation/overrides/{rule['id']}", json={"why": "legacy"}).status_code == 200
    first = api.get(f"{SHOP}/organisation/overrides", params={"limit": 2}).json()
    rest = api.get(f"{SHOP}/organisation/overrides", params={"limit": 2, "cursor": first["next_cursor"]}).json()
    assert len(first["items"]) == 2 and rest["next_cursor"] is None
    assert sorted(o["record"]["id"] for o in first["items"] + rest["items"]) == sorted(r["id"] for r in rules)


@pytest.mark.parametrize(
    ("body", "says"),
    [({}, "why"), ({"why": ""}, "why"), ({"why": "   "}, "why"), ({"why": "x" * 1001}, "why"),
     ({"why": "ok", "extra": 1}, "extra")],
)  # fmt: skip
def test_an_override_needs_a_reason(api: Api, body: dict[str, Any], says: str) -> None:
    rule = post_rule(api, subject=ORG, text="Never log a customer's card number.")
    assert says in error_message(api.post(f"{SHOP}/organisation/overrides/{rule['id']}", json=body), 422)
    assert api.get(f"{SHOP}/organisation/overrides").json()["items"] == []


def test_what_is_refused_and_what_is_not_found(api: Api, other: Api) -> None:
    rule = post_rule(api, subject=ORG, text="Never log a customer's card number.")
    own = api.post(f"{SHOP}/records", json={"text": "Use Postgres for the ledger.", "kind": "decision"}).json()
    why = {"why": "because"}
    # a project's own rule is not an organisation rule; another workspace's rule is not found
    error_message(api.post(f"{SHOP}/organisation/overrides/{own['record']['id']}", json=why), 404)
    error_message(other.post(f"{SHOP}/organisation/overrides/{rule['id']}", json=why), 404)
    error_message(other.post(f"{SHOP}/organisation/overrides/{rule['id']}/restore", json=why), 404)
    assert api.get(f"{SHOP}/organisation/overrides").json()["items"] == []
    # only a rule in force is overridden: a candidate waiting in the organisation's inbox is not
    body = {"text": "Always pin base images by digest.", "kind": "decision", "status": "candidate"}
    pending = api.post(f"/v1/apps/project/subjects/{ORG}/records", json=body)
    assert pending.status_code == 201, pending.text
    assert "candidate" in error_message(
        api.post(f"{SHOP}/organisation/overrides/{pending.json()['record']['id']}", json=why), 422
    )
    # the organisation rule set is not a project that overrides itself
    reserved = f"/v1/apps/project/subjects/{ORG}/organisation/overrides"
    assert "organisation rule set" in error_message(api.get(reserved), 422)
    assert "organisation rule set" in error_message(api.post(f"{reserved}/{rule['id']}", json=why), 422)
    # the routes are the project app's
    assert "project app" in error_message(api.get("/v1/apps/career/organisation/rulebook"), 404)
    assert "project app" in error_message(api.get("/v1/apps/career/subjects/ada/organisation/overrides"), 404)
    assert "nosuchapp" in error_message(api.get("/v1/apps/nosuchapp/organisation/rulebook"), 404)


def test_a_member_key_may_use_the_organisation_routes(api: Api, member: Api) -> None:
    rule = post_rule(api, subject=ORG, text="Never log a customer's card number.")
    assert [r["id"] for r in member.get(f"{ORG_BASE}/rulebook").json()["rules"]] == [rule["id"]]
    done = member.post(f"{SHOP}/organisation/overrides/{rule['id']}", json={"why": "test fixtures"})
    assert done.status_code == 200 and done.json()["by"] == f"key:{member.key_id}"
