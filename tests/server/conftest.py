"""Fixtures for the HTTP API: an app over a fresh file store (hashing embedder), and keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from forethought import Forethought
from forethought.domain.keys import KeyRole
from forethought.server import ServerSettings, create_app

SUBJECT = "/v1/apps/{app}/subjects/{subject}"


@dataclass
class Api:
    """A test client bound to one API key."""

    client: TestClient
    key: str
    key_id: str
    workspace: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    def url(self, app: str, subject: str, rest: str = "") -> str:
        return SUBJECT.format(app=app, subject=subject) + rest

    def get(self, path: str, **kw: Any) -> Any:  # an httpx-style response
        return self.client.get(path, headers={**self.headers, **kw.pop("headers", {})}, **kw)

    def post(self, path: str, **kw: Any) -> Any:  # an httpx-style response
        return self.client.post(path, headers={**self.headers, **kw.pop("headers", {})}, **kw)

    def delete(self, path: str, **kw: Any) -> Any:  # an httpx-style response
        return self.client.delete(path, headers={**self.headers, **kw.pop("headers", {})}, **kw)


MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(memory: Forethought) -> Iterator[MakeClient]:
    clients: list[TestClient] = []

    def make(settings: ServerSettings | None = None, target: Forethought | None = None) -> TestClient:
        app = create_app(target or memory, settings or ServerSettings(rate_per_second=0))
        client = TestClient(app, raise_server_exceptions=False)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    return make_client()


def _api(client: TestClient, memory: Forethought, workspace: str, role: KeyRole = "admin") -> Api:
    key, full = memory.create_api_key(workspace, name=f"{workspace}-{role}", role=role)
    return Api(client, full, key.id, workspace)


@pytest.fixture
def api(client: TestClient, memory: Forethought) -> Api:
    """Workspace A's admin key."""
    return _api(client, memory, "acme")


@pytest.fixture
def other(client: TestClient, memory: Forethought) -> Api:
    """Workspace B's admin key, on the same server."""
    return _api(client, memory, "globex")


@pytest.fixture
def member(client: TestClient, memory: Forethought) -> Api:
    """A member key of workspace A (no key management, no erasure)."""
    return _api(client, memory, "acme", "member")


def post_rule(api: Api, text: str, subject: str = "wharf", **extra: Any) -> dict[str, Any]:
    """A project-app record written through the API (a decision unless `extra` says otherwise)."""
    done = api.post(f"/v1/apps/project/subjects/{subject}/records", json={"text": text, "kind": "decision", **extra})
    assert done.status_code == 201, done.text
    record: dict[str, Any] = done.json()["record"]
    return record


def error_message(response: Any, status: int) -> str:
    """The error envelope's one-line message, after checking the status (never a traceback)."""
    assert response.status_code == status, response.text
    message: str = response.json()["error"]["message"]
    assert "\n" not in message and "Traceback" not in message
    return message
