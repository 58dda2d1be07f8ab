"""Past-session excerpts over HTTP: the brief lists them and the inbox promotes one (422 for a
quote not in the turn, 404 for another subject's session). The chat is tests/pipeline/test_excerpts.py's."""

from __future__ import annotations

from tests.pipeline.test_excerpts import CHAT, TASK
from tests.server.conftest import Api


def test_http_brief_lists_excerpts_and_the_inbox_promotes_one(api: Api) -> None:
    base = api.url("project", "ferry")
    made = api.post(f"{base}/sessions", json={"title": "manifest chat", "text": CHAT, "format": "text"})
    assert made.status_code == 201, made.text
    brief = api.post(f"{base}/brief", json={"task": TASK}).json()
    assert brief["excerpts"] and "UNREVIEWED" in brief["block"]
    excerpt = brief["excerpts"][0]
    assert "UTC" in excerpt["quote"] and excerpt["session_title"] == "manifest chat"
    none = api.post(f"{base}/brief", json={"task": TASK, "max_excerpts": 0}).json()
    assert none["excerpts"] == [] and "UNREVIEWED" not in none["block"]
    body = {"session_id": excerpt["session_id"], "turn_index": excerpt["turn_index"], "quote": excerpt["quote"],
            "kind": "constraint"}  # fmt: skip
    filed = api.post(f"{base}/inbox/from-excerpt", json=body)
    assert filed.status_code == 201, filed.text
    (item,) = filed.json()["items"]
    assert item["outcome"] == "pending" and item["record"]["evidence"][0]["quote"] == excerpt["quote"]
    assert api.post(f"{base}/inbox/from-excerpt", json={**body, "quote": "never said"}).status_code == 422
    other = api.url("project", "harbour")
    assert api.post(f"{other}/inbox/from-excerpt", json=body).status_code == 404
    assert api.post(f"{base}/brief", json={"task": TASK, "max_excerpts": 11}).status_code == 422


def test_http_check_takes_the_drafts_path(api: Api) -> None:
    base = api.url("project", "ferry")
    rule = {"text": "Never call `legacyFetch` in the web client; use `apiFetch`.", "kind": "constraint"}
    assert api.post(f"{base}/records", json=rule).status_code == 201
    found = api.post(f"{base}/check", json={"draft": "const r = legacyFetch(url)\n", "path": "web/client.ts"})
    assert found.status_code == 200 and found.json()["violations"], found.text
    assert api.post(f"{base}/check", json={"draft": "x", "path": "p" * 501}).status_code == 422
