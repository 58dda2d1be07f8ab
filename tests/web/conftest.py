"""Fixtures for the web workspace: a test client logged in with a key, and the page helpers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from forethought import Forethought
from forethought.domain.keys import KeyRole
from forethought.server import ServerSettings, create_app

_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_LOGIN_TOKEN = re.compile(r'name="login_token" value="([^"]+)"')


@dataclass
class Browser:
    """A test client with its own cookie jar, logged in (or not) as one API key."""

    client: TestClient
    key: str
    workspace: str
    csrf: str = ""

    def get(self, path: str, **kw: Any) -> Any:  # an httpx response
        return self.client.get(path, **kw)

    def post(self, path: str, data: dict[str, str] | None = None, **kw: Any) -> Any:
        """A form post carrying this session's CSRF token (unless `data` names its own)."""
        return self.client.post(path, data={"csrf": self.csrf, **(data or {})}, **kw)

    def login(self) -> Any:
        form = self.client.get("/web/login")
        token = _LOGIN_TOKEN.search(form.text)
        assert token is not None, form.text
        done = self.client.post("/web/login", data={"key": self.key, "login_token": token.group(1), "next": "/web"})
        found = _CSRF.search(done.text)
        assert done.status_code == 200 and found is not None, done.text
        self.csrf = found.group(1)
        return done


MakeBrowser = Callable[..., Browser]


@pytest.fixture
def app_for(memory: Forethought) -> Iterator[MakeBrowser]:
    """Make a browser with a new key of a workspace (logged in unless `login=False`)."""
    clients: list[TestClient] = []

    def make(workspace: str, *, login: bool = True, role: KeyRole = "member") -> Browser:
        _, full = memory.create_api_key(workspace, name=f"{workspace}-web", role=role)
        client = TestClient(app, raise_server_exceptions=False, follow_redirects=True)
        clients.append(client)
        browser = Browser(client, full, workspace)
        if login:
            browser.login()
        return browser

    app = create_app(memory, ServerSettings(rate_per_second=0))
    yield make
    for client in clients:
        client.close()
    web = getattr(app.state, "web", None)
    assert web is None or web.imports.wait(), "an import was still running when the store closed"


@pytest.fixture
def alice(app_for: MakeBrowser) -> Browser:
    """A browser logged in to workspace "acme"."""
    return app_for("acme")


@pytest.fixture
def guest(app_for: MakeBrowser) -> Browser:
    """A browser with a key for workspace "acme" that has not logged in."""
    return app_for("acme", login=False)
