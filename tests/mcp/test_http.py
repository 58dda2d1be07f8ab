"""The MCP server over streamable HTTP (`forethought mcp --transport http` on a free loopback
port), through the official client: an API key on every request, and a workspace's memory
reachable only with that workspace's key."""

from __future__ import annotations

import json

import httpx2
import pytest

from forethought import Forethought
from tests.mcp.conftest import CANARY, TOOL_NAMES, HttpServer, run, text
from tests.mcp.scenarios import every_tool

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _post(url: str, authorization: str | None, **extra: str) -> httpx2.Response:
    headers = {**HEADERS, **extra}
    if authorization is not None:
        headers["Authorization"] = authorization
    with httpx2.Client(timeout=30) as http:
        return http.post(url, json=INITIALIZE, headers=headers)


def test_every_tool_answers_with_a_valid_key(http_server: HttpServer) -> None:
    async def scenario() -> None:
        async with http_server.client(http_server.seed.key_a) as client:
            tools = (await client.list_tools()).tools
            assert {t.name for t in tools} == TOOL_NAMES
            assert all(t.annotations and t.annotations.read_only_hint is not None for t in tools)
            await every_tool(client, http_server.seed)
            bad = await client.call_tool("forethought_recall", {"query": "x", "project": "apexcart", "k": 0})
            assert bad.is_error and text(bad).startswith("invalid input: k:")

    run(scenario)


@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer ft_not_a_key", "Bearer not-even-the-format", "Basic dXNlcjpwYXNz", "ft_raw"],
)
def test_a_missing_or_wrong_key_is_refused_before_mcp(http_server: HttpServer, authorization: str | None) -> None:
    response = _post(http_server.url, authorization)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert response.json()["error"]["code"] == "unauthorized"


def test_a_foreign_host_or_origin_is_refused_even_with_a_key(http_server: HttpServer) -> None:
    bearer = f"Bearer {http_server.seed.key_a}"
    assert _post(http_server.url, bearer).status_code == 200
    assert _post(http_server.url, bearer, Host="evil.example").status_code == 421  # DNS rebinding
    assert _post(http_server.url, bearer, Origin="http://evil.example").status_code == 403


def test_the_official_client_without_a_key_cannot_connect(http_server: HttpServer) -> None:
    async def scenario() -> None:
        async with http_server.client(None) as client:
            await client.list_tools()

    with pytest.raises(Exception):  # noqa: B017 - the SDK wraps the 401 in its own error types
        run(scenario, timeout=30)


def test_a_key_revoked_while_the_server_runs_is_refused_on_the_next_request(http_server: HttpServer) -> None:
    with Forethought.open(http_server.seed.db, embedder="hashing") as memory:
        key, full = memory.create_api_key("alpha", name="short-lived")
    assert _post(http_server.url, f"Bearer {full}").status_code == 200
    with Forethought.open(http_server.seed.db, embedder="hashing") as memory:
        memory.revoke_api_key(key.id)
    assert _post(http_server.url, f"Bearer {full}").status_code == 401


def test_workspace_b_never_sees_workspace_a_through_any_tool(http_server: HttpServer) -> None:
    seeded = http_server.seed
    outputs: list[str] = []

    async def scenario() -> None:
        async with http_server.client(seeded.key_a) as client:  # the control: A sees its canary
            found = await client.call_tool(
                "forethought_recall", {"query": "billing vault Monday", "project": "apexcart"}
            )
            assert CANARY in json.dumps(found.structured_content)
        async with http_server.client(seeded.key_b) as client:
            for app in ("project", "generic", "career", "support"):
                base = {"project": "apexcart", "app": app}
                calls = [
                    ("forethought_brief", {"task": "rotate the billing vault on Monday", "files": ["billing.ts"]}),
                    ("forethought_check", {"content": "The alpha billing vault rotates every Monday; use moment."}),
                    ("forethought_ask", {"question": "When does the alpha billing vault rotate?"}),
                    ("forethought_rulebook", {}),
                    ("forethought_recall", {"query": "CANARY-7f3a alpha billing vault Monday", "k": 50}),
                    ("forethought_submit_session", {"transcript": "User: We decided to rotate keys.", "title": "b"}),
                ]
                for name, arguments in calls:
                    result = await client.call_tool(name, {**base, **arguments})
                    assert not result.is_error, (name, app, text(result))
                    outputs.append(text(result) + json.dumps(result.structured_content))
            mine = await client.call_tool("forethought_rulebook", {"project": "apexcart"})
            assert "blue-green" in text(mine)  # B sees its own apexcart
            moment = await client.call_tool("forethought_check", {"content": "import moment", "project": "apexcart"})
            assert moment.structured_content["violations"] == []  # A's rule does not bind B

    run(scenario)
    secrets = (CANARY, *seeded.canary_ids, seeded.moment_handle)  # none of them is in any input above
    assert len(outputs) == 24
    assert [o for o in outputs if any(s in o for s in secrets)] == []


@pytest.mark.parametrize(
    "transcript",
    [
        '{"messages": [{"role": "user", "content": ' + "[" * 100_000 + "]" * 100_000 + "}]}",
        "[" * 100_000 + "]" * 100_000,
        '{"messages": [{"role": "user", "content": "hi", "x": ' + '{"a":' * 3_000 + "1" + "}" * 3_000 + "}]}",
    ],
    ids=["content", "whole", "objects"],
)
def test_a_deeply_nested_transcript_is_a_tool_error_not_a_crash(http_server: HttpServer, transcript: str) -> None:
    async def scenario() -> None:
        async with http_server.client(http_server.seed.key_a) as client:
            args = {"transcript": transcript, "title": "deep", "project": "apexcart"}
            refused = await client.call_tool("forethought_submit_session", args)
            assert refused.is_error and "JSON nests deeper than 64 levels" in text(refused), text(refused)
            again = await client.call_tool("forethought_recall", {"query": "moment", "project": "apexcart"})
            assert not again.is_error  # the server is still serving

    run(scenario)


def test_every_answer_carries_the_security_headers_refusals_included(http_server: HttpServer) -> None:
    bearer = f"Bearer {http_server.seed.key_a}"
    for response in (_post(http_server.url, bearer), _post(http_server.url, None), _post(http_server.url, "Bearer x")):
        assert response.headers["x-content-type-options"] == "nosniff", response.status_code
        assert response.headers["cache-control"] == "no-store" and response.headers["x-frame-options"] == "DENY"
