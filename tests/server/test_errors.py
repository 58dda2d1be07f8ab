"""One error envelope for every failure: {"error": {"code", "message", "details"}}."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from forethought import Forethought
from forethought.errors import IntegrityError, StoreBusy
from forethought.server import ServerSettings
from tests.server.conftest import Api, MakeClient


def _envelope(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code and body["error"]["message"]
    error: dict[str, Any] = body["error"]
    return error


def test_401_without_a_key(client: TestClient) -> None:
    response = client.get("/v1/keys")
    _envelope(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Bearer ft_nope_nope"},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"X-API-Key": "not-a-key"},
        {"Authorization": "Bearer " + "x" * 5000},
    ],
)
def test_401_with_a_bad_key(client: TestClient, headers: dict[str, str]) -> None:
    _envelope(client.get("/v1/apps/project/subjects/tillpoint/records", headers=headers), 401, "unauthorized")


def test_x_api_key_header_works_too(api: Api) -> None:
    assert api.client.get("/v1/keys", headers={"X-API-Key": api.key}).status_code == 200


def test_401_after_revocation(api: Api, memory: Forethought) -> None:
    memory.revoke_api_key(api.key_id)
    _envelope(api.get("/v1/keys"), 401, "unauthorized")


def test_404_unknown_route_record_and_app(api: Api) -> None:
    assert "GET /nowhere" in _envelope(api.get("/nowhere"), 404, "not_found")["message"]
    _envelope(api.get(api.url("project", "tillpoint", "/records/nope")), 404, "not_found")
    _envelope(api.get(api.url("cooking", "soup", "/records")), 404, "not_found")
    _envelope(api.get("/v1/apps/cooking/subjects"), 404, "not_found")


def test_405(api: Api) -> None:
    response = api.client.put("/v1/keys", headers=api.headers)
    _envelope(response, 405, "method_not_allowed")
    assert "GET" in response.headers["allow"]


def test_413_by_content_length_and_by_stream(make_client: MakeClient, api: Api) -> None:
    client = make_client(ServerSettings(max_body_bytes=2048, rate_per_second=0))
    url = api.url("project", "tillpoint", "/records")
    big = {"text": "x" * 4000}
    _envelope(client.post(url, headers=api.headers, json=big), 413, "payload_too_large")

    def chunks() -> Any:  # no Content-Length: the server must stop reading past the limit
        for _ in range(100):
            yield b"x" * 1024

    _envelope(client.post(url, headers=api.headers, content=chunks()), 413, "payload_too_large")
    assert client.post(url, headers=api.headers, json={"text": "small enough"}).status_code == 201


def test_413_on_a_workspace_form_is_a_page_not_json(make_client: MakeClient) -> None:
    client = make_client(ServerSettings(max_body_bytes=2048, rate_per_second=0))
    response = client.post("/web/login", data={"key": "x" * 4000})
    assert response.status_code == 413 and response.headers["content-type"].startswith("text/html")
    assert "over the limit of 2,048 bytes" in response.text and "<script" not in response.text


def test_422_validation_details(api: Api) -> None:
    url = api.url("project", "tillpoint", "/records")
    error = _envelope(api.post(url, json={"text": 5, "surprise": True}), 422, "validation_error")
    locs = [d["loc"] for d in error["details"]]
    assert ["body", "text"] in locs and ["body", "surprise"] in locs
    assert all(set(d) == {"loc", "msg", "type"} for d in error["details"])  # the input is not echoed
    _envelope(
        api.post(url, content=b"{not json", headers={"Content-Type": "application/json"}), 422, "validation_error"
    )
    _envelope(api.get(url, params={"limit": 0}), 422, "validation_error")
    _envelope(api.get(url, params={"cursor": "%%%"}), 422, "invalid_input")


def test_422_from_the_memory_service(api: Api) -> None:
    url = api.url("project", "tillpoint", "/records")
    error = _envelope(api.post(url, json={"text": "   "}), 422, "invalid_input")
    assert "statement" in error["message"] or "text" in error["message"]
    _envelope(api.get(api.url("project", "x" * 500, "/records")), 422, "invalid_input")


def test_422_json_too_deep(api: Api) -> None:
    deep = b"[" * 100 + b"]" * 100
    url = api.url("project", "tillpoint", "/records")
    _envelope(api.post(url, content=deep, headers={"Content-Type": "application/json"}), 422, "json_too_deep")
    _envelope(api.post(url, content=deep), 422, "json_too_deep")  # whatever the declared type


def test_409_for_a_forbidden_transition(api: Api) -> None:
    made = api.post(api.url("project", "tillpoint", "/records"), json={"text": "Ship on Tuesday."}).json()
    url = api.url("project", "tillpoint", f"/inbox/{made['record']['id']}/approve")
    _envelope(api.post(url), 409, "invalid_transition")  # an active record is no candidate


def test_429_with_retry_after(make_client: MakeClient, api: Api) -> None:
    client = make_client(ServerSettings(rate_per_second=0.01, rate_burst=3))
    statuses = [client.get("/v1/keys", headers=api.headers).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    response = client.get("/v1/keys", headers=api.headers)
    _envelope(response, 429, "rate_limited")
    assert int(response.headers["Retry-After"]) >= 1


class _Broken(Forethought):
    def recall(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals: /srv/db password=hunter2")

    def get(self, *args: Any, **kwargs: Any) -> Any:
        raise IntegrityError("a row of space 1234 leaked")

    def list_records(self, *args: Any, **kwargs: Any) -> Any:
        raise StoreBusy("the store stayed locked")


@pytest.fixture
def broken(make_client: MakeClient, memory: Forethought) -> TestClient:
    return make_client(target=_Broken(memory.store, memory.embedder))


def test_500_says_nothing_about_the_code(broken: TestClient, api: Api) -> None:
    response = broken.post(api.url("project", "tillpoint", "/recall"), headers=api.headers, json={"query": "x"})
    error = _envelope(response, 500, "internal_error")
    assert "hunter2" not in response.text and "Traceback" not in response.text and "RuntimeError" not in response.text
    assert error["details"] is None
    leaked = broken.get(api.url("project", "tillpoint", "/records/abc"), headers=api.headers)
    _envelope(leaked, 500, "integrity_error")
    assert "1234" not in leaked.text


def test_503_when_the_store_is_busy(broken: TestClient, api: Api) -> None:
    response = broken.get(api.url("project", "tillpoint", "/records"), headers=api.headers)
    _envelope(response, 503, "store_busy")
    assert response.headers["Retry-After"] == "1"
