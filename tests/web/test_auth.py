"""Logging in and out, the session cookie, CSRF, and revocation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from forethought import Forethought
from forethought.domain.times import parse_time
from forethought.server import ServerSettings, create_app
from forethought.store.sqlite import SQLiteStore
from forethought.web import sessions
from forethought.web.sessions import SESSION_COOKIE, SessionStore
from tests.web.conftest import Browser, MakeBrowser


def test_the_root_leads_to_the_login_page_when_logged_out(guest: Browser) -> None:
    page = guest.get("/")
    assert page.status_code == 200
    assert page.url.path == "/web/login"
    assert 'type="password"' in page.text


def test_a_page_asked_for_before_login_is_shown_after_it(guest: Browser) -> None:
    first = guest.get("/web/apps/career/maya/memory", follow_redirects=False)
    assert first.status_code == 303
    assert first.headers["location"] == "/web/login?next=%2Fweb%2Fapps%2Fcareer%2Fmaya%2Fmemory"
    form = guest.get(first.headers["location"])
    assert 'name="next" value="/web/apps/career/maya/memory"' in form.text


def test_logging_in_sets_an_http_only_strict_session_cookie(guest: Browser) -> None:
    form = guest.get("/web/login")
    token = form.text.split('name="login_token" value="')[1].split('"')[0]
    done = guest.client.post(
        "/web/login", data={"key": guest.key, "login_token": token, "next": "/web"}, follow_redirects=False
    )
    assert done.status_code == 303
    assert done.headers["location"] == "/web"
    cookie = next(c for c in done.headers.get_list("set-cookie") if c.startswith(f"{SESSION_COOKIE}="))
    flags = {part.strip().lower() for part in cookie.split(";")}
    assert "httponly" in flags
    assert "samesite=strict" in flags
    assert "path=/" in flags
    assert guest.key not in cookie  # the browser holds a random token, never the key
    assert guest.key not in done.headers["location"]


def test_the_workspace_and_the_mode_are_shown_after_login(alice: Browser) -> None:
    page = alice.get("/web")
    assert page.url.path == "/web"
    assert "workspace <strong>acme</strong>" in page.text
    assert "heuristic mode" in page.text  # no model is configured in the tests


def test_a_wrong_key_is_refused_on_the_login_page(guest: Browser) -> None:
    guest.key = "ft_000000000000_not-a-real-key"
    form = guest.get("/web/login")
    token = form.text.split('name="login_token" value="')[1].split('"')[0]
    refused = guest.client.post("/web/login", data={"key": guest.key, "login_token": token})
    assert refused.status_code == 401
    assert "unknown or has been revoked" in refused.text
    assert SESSION_COOKIE not in guest.client.cookies


def test_login_without_the_form_token_is_refused(guest: Browser) -> None:
    refused = guest.client.post("/web/login", data={"key": guest.key})
    assert refused.status_code == 403
    assert SESSION_COOKIE not in guest.client.cookies


def test_login_sends_the_browser_only_to_this_site(guest: Browser) -> None:
    form = guest.get("/web/login")
    token = form.text.split('name="login_token" value="')[1].split('"')[0]
    done = guest.client.post(
        "/web/login",
        data={"key": guest.key, "login_token": token, "next": "//evil.example/web/"},
        follow_redirects=False,
    )
    assert done.headers["location"] == "/web"


def test_logging_out_ends_the_session_on_the_server(alice: Browser) -> None:
    token = alice.client.cookies[SESSION_COOKIE]
    out = alice.post("/web/logout")
    assert out.url.path == "/web/login"
    alice.client.cookies.set(SESSION_COOKIE, token)  # replaying the old cookie does not help
    assert alice.get("/web").url.path == "/web/login"


def test_a_form_without_the_csrf_token_is_refused(alice: Browser, memory: Forethought) -> None:
    refused = alice.client.post("/web/apps/generic/notes/chat", data={"message": "remember that I like tea"})
    assert refused.status_code == 403
    assert "did not come from this site" in refused.text
    assert memory.list_spaces("acme") == []  # the turn never ran


def test_a_form_with_another_sessions_csrf_token_is_refused(
    alice: Browser, app_for: MakeBrowser, memory: Forethought
) -> None:
    other = app_for("acme")
    refused = alice.post("/web/apps/generic/notes/chat", data={"message": "hello", "csrf": other.csrf})
    assert refused.status_code == 403
    assert memory.list_spaces("acme") == []


def test_logout_needs_the_csrf_token_too(alice: Browser) -> None:
    refused = alice.client.post("/web/logout", data={"csrf": "forged"})
    assert refused.status_code == 403
    assert alice.get("/web").url.path == "/web"  # still logged in


def test_revoking_the_key_logs_the_browser_out(alice: Browser, memory: Forethought) -> None:
    assert alice.get("/web").url.path == "/web"
    key_id = alice.key.split("_")[1]
    memory.revoke_api_key(key_id)
    assert alice.get("/web/apps/career/maya/chat").url.path == "/web/login"
    refused = alice.post("/web/apps/career/maya/chat", data={"message": "still there?"})
    assert refused.url.path == "/web/login"
    assert memory.list_spaces("acme") == []


def test_pages_carry_a_strict_content_security_policy(alice: Browser) -> None:
    page = alice.get("/web")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["cache-control"] == "no-store"


def test_the_static_files_are_served_by_us(guest: Browser) -> None:
    css = guest.get("/web/static/app.css")
    js = guest.get("/web/static/app.js")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert js.status_code == 200 and "EventSource" in js.text
    assert guest.get("/web/static/../../server/app.py").status_code == 404


def test_pages_share_the_keys_rate_limit(memory: Forethought) -> None:
    app = create_app(memory, ServerSettings(rate_per_second=0.001, rate_burst=3))
    with TestClient(app, raise_server_exceptions=False, follow_redirects=True) as client:
        _, key = memory.create_api_key("acme", name="limited")
        browser = Browser(client, key, "acme")
        browser.login()  # the page it lands on takes the first of the three
        pages = [browser.get("/web").status_code for _ in range(3)]
        assert pages == [200, 200, 429]
        refused = browser.get("/web")
        assert "too many requests with this key" in refused.text and "Traceback" not in refused.text
        api = client.get("/v1/workspace", headers={"Authorization": f"Bearer {key}"})
        assert api.status_code == 429  # one budget per key, pages and API together


def test_a_session_ends_after_its_idle_time_and_its_maximum_age() -> None:
    now = [parse_time("2026-05-01T00:00:00Z")]
    store = SessionStore(SQLiteStore(":memory:").logins, clock=lambda: now[0])
    idle, _ = store.create("k1", "acme")
    now[0] += timedelta(seconds=sessions.IDLE_S + 1)
    assert store.get(idle) is None
    busy, _ = store.create("k1", "acme")
    ends = now[0] + timedelta(seconds=sessions.MAX_AGE_S)
    while now[0] + timedelta(seconds=sessions.IDLE_S / 2) <= ends:  # used often, so never idle...
        now[0] += timedelta(seconds=sessions.IDLE_S / 2)
        assert store.get(busy) is not None
    now[0] = ends + timedelta(seconds=1)  # ...yet too old at last
    assert store.get(busy) is None


def test_a_browser_session_outlives_a_restart_and_is_seen_by_every_worker(
    memory: Forethought, request: pytest.FixtureRequest
) -> None:
    """Sessions are the store's: a server process started later, or another one running beside the
    first on the same database, knows the browser; logging out on one ends it on all."""
    sqlite = memory.store.stats()["kind"] == "sqlite"
    target = memory.store.stats()["path"] if sqlite else request.getfixturevalue("postgres_dsn")
    _, key = memory.create_api_key("acme", name="web", role="member")
    first = TestClient(create_app(memory, ServerSettings(rate_per_second=0)), follow_redirects=True)
    browser = Browser(first, key, "acme")
    browser.login()
    cookie = first.cookies.get(sessions.SESSION_COOKIE)
    assert cookie
    with Forethought.open(target, embedder="hashing") as other_process:
        second = TestClient(create_app(other_process, ServerSettings(rate_per_second=0)), follow_redirects=True)
        same_browser = {"Cookie": f"{sessions.SESSION_COOKIE}={cookie}"}
        page = second.get("/web", headers=same_browser)
        assert page.status_code == 200 and page.url.path == "/web" and "Log out" in page.text
        second.post("/web/logout", data={"csrf": browser.csrf}, headers=same_browser)
        second.close()
    assert first.get("/web").url.path == "/web/login"  # the first worker sees the logout too
    first.close()
