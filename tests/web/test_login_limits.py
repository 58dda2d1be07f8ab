"""Browser sessions are bounded per key and per workspace, and logins are budgeted: one key
logging in without end never logs out another key's browser, a burst of wrong keys gets 429
with Retry-After, and a right key still gets in."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forethought import Forethought
from forethought.server import ServerSettings, create_app
from forethought.store.sqlite import SQLiteStore
from forethought.web.sessions import MAX_PER_KEY, SESSION_COOKIE, SessionsFull, SessionStore
from tests.web.conftest import Browser

_LOGIN_TOKEN = re.compile(r'name="login_token" value="([^"]+)"')
BURST = 5


@pytest.fixture
def app(memory: Forethought) -> Iterator[FastAPI]:
    """The workspace with small failure and login budgets (no per-request limit)."""
    yield create_app(
        memory,
        ServerSettings(rate_per_second=0, auth_failure_rate=0.001, auth_failure_burst=BURST, login_rate=0),
    )


def _client(app: FastAPI, address: str = "10.0.0.1") -> TestClient:
    return TestClient(app, raise_server_exceptions=False, follow_redirects=False, client=(address, 40000))


def _login(client: TestClient, key: str) -> httpx2.Response:
    form = client.get("/web/login")
    token = _LOGIN_TOKEN.search(form.text)
    assert token is not None, form.text
    return client.post("/web/login", data={"key": key, "login_token": token.group(1), "next": "/web"})


def _logged_in(client: TestClient) -> bool:
    return bool(client.get("/web").status_code == 200)


def test_one_key_logging_in_over_and_over_never_logs_out_another_workspace(app: FastAPI, memory: Forethought) -> None:
    _, victim_key = memory.create_api_key("acme", name="victim")
    victim = _client(app, "10.0.0.2")
    assert _login(victim, victim_key).status_code == 303
    flooding, own = memory.create_api_key("globex", name="flooder")
    flooder = _client(app)
    for _ in range(3 * MAX_PER_KEY):
        flooder.cookies.clear()
        assert _login(flooder, own).status_code == 303
    assert _logged_in(victim)
    assert app.state.web.sessions.count(key_id=flooding.id) == MAX_PER_KEY
    assert _logged_in(flooder)  # the newest session of the flooding key is one that was kept


def test_a_burst_of_wrong_keys_gets_429_with_retry_after_and_a_right_key_still_logs_in(
    app: FastAPI, memory: Forethought
) -> None:
    attacker = _client(app)
    codes = [_login(attacker, f"ft_000000000000_wrong{i}").status_code for i in range(BURST + 3)]
    assert codes[:BURST] == [401] * BURST and set(codes[BURST:]) == {429}
    refused = _login(attacker, "ft_000000000000_wrong-again")
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    assert "too many failed logins" in refused.text and "Traceback" not in refused.text
    _, right = memory.create_api_key("acme", name="right")
    assert _login(attacker, right).status_code == 303  # even from that address
    assert _login(_client(app, "10.0.0.9"), right).status_code == 303


def test_logins_of_one_key_are_budgeted(memory: Forethought) -> None:
    limited = create_app(memory, ServerSettings(rate_per_second=0, login_rate=0.001, login_burst=3))
    _, key = memory.create_api_key("acme", name="busy")
    client = _client(limited)
    codes = []
    for _ in range(5):
        client.cookies.clear()
        codes.append(_login(client, key).status_code)
    assert codes == [303, 303, 303, 429, 429]
    _, other = memory.create_api_key("acme", name="calm")
    assert _login(_client(limited, "10.0.0.3"), other).status_code == 303


def test_revoked_and_unknown_keys_share_the_failure_budget(app: FastAPI, memory: Forethought) -> None:
    key, full = memory.create_api_key("acme", name="gone")
    memory.revoke_api_key(key.id)
    client = _client(app, "10.0.0.4")
    codes = [_login(client, full).status_code for _ in range(BURST + 1)]
    assert codes == [401] * BURST + [429]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(logins=st.lists(st.sampled_from(["k1", "k2", "k3"]), min_size=1, max_size=80))
def test_no_sequence_of_logins_evicts_a_session_of_another_key(logins: list[str]) -> None:
    store = SessionStore(SQLiteStore(":memory:").logins, max_sessions=50, max_per_workspace=30, max_per_key=7)
    victim, _ = store.create("victim", "acme")
    held: dict[str, list[str]] = {}
    for key_id in logins:
        workspace = "acme" if key_id == "k1" else "globex"
        try:
            token, _ = store.create(key_id, workspace)
        except SessionsFull:
            continue
        held.setdefault(key_id, []).append(token)
    assert store.get(victim) is not None
    for tokens in held.values():
        alive = [t for t in tokens if store.get(t) is not None]
        assert alive == tokens[-len(alive) :] and 1 <= len(alive) <= 7  # its newest, up to its cap
    assert store.count(workspace="globex") <= 30 and store.count() <= 50


def test_a_full_workspace_refuses_a_new_key_rather_than_evicting_another() -> None:
    store = SessionStore(SQLiteStore(":memory:").logins, max_per_workspace=3, max_per_key=3)
    tokens = [store.create("a", "acme")[0] for _ in range(3)]
    with pytest.raises(SessionsFull, match="workspace"):
        store.create("b", "acme")
    assert all(store.get(t) is not None for t in tokens)
    store.create("c", "globex")  # another workspace has room of its own
    newest, _ = store.create("a", "acme")  # the full key gives up its own oldest
    assert store.get(tokens[0]) is None and store.get(newest) is not None


def test_logging_out_frees_the_sessions_place(alice: Browser) -> None:
    sessions = alice.client.app.state.web.sessions  # type: ignore[attr-defined]
    assert sessions.count(workspace="acme") == 1
    alice.post("/web/logout")
    assert sessions.count(workspace="acme") == 0 and SESSION_COOKIE not in alice.client.cookies
