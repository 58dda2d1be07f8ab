"""Failed authentication is budgeted per client address and per claimed key id on the API and
MCP over HTTP: past the budget, 429 with Retry-After instead of 401; a valid key is never
refused for others' failures. The budget tables stay bounded however many addresses fail."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.types import Receive, Scope, Send

from forethought import Forethought
from forethought.mcp_server.http import RequireApiKey
from forethought.server import ServerSettings, create_app
from forethought.server.authguard import AuthGuard, claimed_key_id
from forethought.server.ratelimit import RateLimiter

BURST = 4
LIMITS = ServerSettings(rate_per_second=0, auth_failure_rate=0.001, auth_failure_burst=BURST)


def _client(memory: Forethought, address: str = "10.1.0.1") -> TestClient:
    return TestClient(create_app(memory, LIMITS), raise_server_exceptions=False, client=(address, 40000))


def _as(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_burst_of_wrong_keys_gets_429_and_a_valid_key_is_not_slowed(memory: Forethought) -> None:
    client = _client(memory)
    codes = [client.get("/v1/workspace", headers=_as(f"ft_{i:012x}_guess")).status_code for i in range(BURST + 3)]
    assert codes == [401] * BURST + [429] * 3
    refused = client.get("/v1/workspace", headers={"X-API-Key": "ft_0000_other"})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert refused.json()["error"]["code"] == "rate_limited"
    _, valid = memory.create_api_key("acme")
    assert client.get("/v1/workspace", headers=_as(valid)).status_code == 200  # same address, still served


def test_guessing_one_key_id_from_many_addresses_is_budgeted_per_key_id(memory: Forethought) -> None:
    key, full = memory.create_api_key("acme")
    app = create_app(memory, LIMITS)
    codes = []
    for i in range(BURST + 2):
        with TestClient(app, raise_server_exceptions=False, client=(f"10.2.0.{i}", 40000)) as client:
            codes.append(client.get("/v1/workspace", headers=_as(f"ft_{key.id}_guess{i}")).status_code)
    assert codes == [401] * BURST + [429] * 2
    with TestClient(app, raise_server_exceptions=False, client=("10.2.1.1", 40000)) as client:
        assert client.get("/v1/workspace", headers=_as(full)).status_code == 200  # the real key of that id


_PRINTABLE = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=60)
# Bad keys of every shape: junk, and well-formed keys with a made-up id or secret.
BAD_KEYS = st.one_of(
    _PRINTABLE, st.builds(lambda i, s: f"ft_{i}_{s}", _PRINTABLE.filter(lambda t: "_" not in t), _PRINTABLE)
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(guesses=st.lists(BAD_KEYS, min_size=BURST + 1, max_size=12))
def test_any_run_of_bad_keys_ends_in_429_while_a_valid_key_passes(memory: Forethought, guesses: list[str]) -> None:
    client = _client(memory, "10.3.0.1")
    _, valid = memory.create_api_key("acme")
    codes = []
    for guess in guesses:
        codes.append(client.get("/v1/workspace", headers={"X-API-Key": guess}).status_code)
        assert client.get("/v1/workspace", headers=_as(valid)).status_code == 200
    assert set(codes[:BURST]) <= {401, 429} and set(codes[BURST:]) == {429}


def test_an_address_flood_keeps_the_budget_table_bounded() -> None:
    limiter = RateLimiter(0.001, 2, max_names=100)
    for i in range(5_000):
        limiter.take(f"addr:10.{i // 256}.{i % 256}.1")
    assert len(limiter) <= 100
    limiter.take("addr:victim")
    limiter.take("addr:victim")
    assert not limiter.take("addr:victim").allowed  # the newest entries are kept


@pytest.mark.parametrize(
    ("presented", "claimed"),
    [("ft_abc123_secret", "abc123"), ("ft__x", None), ("nope", None), ("ft_" + "a" * 40 + "_s", None)],
)
def test_the_claimed_key_id_is_read_only_from_the_keys_shape(presented: str, claimed: str | None) -> None:
    assert claimed_key_id(presented) == claimed


async def _inner(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def test_mcp_over_http_budgets_failed_keys_too(memory: Forethought) -> None:
    guard = AuthGuard(LIMITS)
    app: Any = RequireApiKey(_inner, memory, guard)
    _, valid = memory.create_api_key("alpha")
    client = TestClient(app, raise_server_exceptions=False, client=("10.4.0.1", 40000))  # no lifespan to run
    codes = [client.post("/mcp", headers=_as(f"ft_{i:012x}_guess")).status_code for i in range(BURST + 2)]
    assert codes == [401] * BURST + [429] * 2
    refused = client.post("/mcp", headers=_as("ft_000000000000_more"))
    assert refused.headers["retry-after"] and refused.json()["error"]["code"] == "rate_limited"
    assert client.post("/mcp", headers=_as(valid)).status_code == 200
