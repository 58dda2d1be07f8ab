"""Every response carries the same security headers (refusals and the docs included), and a
server with an allow-list refuses any other Host."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forethought import Forethought
from forethought.server import ServerSettings, create_app
from forethought.server.headers import LOOPBACK_HOSTS, SECURITY_HEADERS, host_name, hosts_for_bind
from tests.server.conftest import Api, MakeClient

SAME_EVERYWHERE = {"x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "same-origin"}
FIXTURES = [HealthCheck.function_scoped_fixture]


def _secured(response: object) -> None:
    headers = response.headers  # type: ignore[attr-defined]
    for name, value in SAME_EVERYWHERE.items():
        assert headers.get(name) == value, (name, dict(headers))
    assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), dict(headers)


def test_every_kind_of_api_response_carries_the_security_headers(api: Api, make_client: MakeClient) -> None:
    url = api.url("project", "tillpoint")
    responses = [
        api.get(url + "/records"),  # 200
        api.client.get(url + "/records"),  # 401
        api.get("/v1/nothing-here"),  # 404
        api.post(url + "/records", json={"text": ""}),  # 422
        api.post(url + "/recall", content=b"[" * 100 + b"]" * 100, headers={"Content-Type": "application/json"}),
        api.post(url + "/records", content=b"x" * (2 << 20), headers={"Content-Type": "application/json"}),  # 413
        api.client.get("/health"),
        api.client.get("/metrics"),
        api.client.get("/openapi.json"),
    ]
    assert [r.status_code for r in responses] == [200, 401, 404, 422, 422, 413, 200, 200, 200]
    for response in responses:
        _secured(response)
        if not response.headers["content-type"].startswith("text/html"):
            assert response.headers["cache-control"] == "no-store", response.request.url


def test_the_413_page_of_the_workspace_has_the_headers_of_every_other_page(api: Api) -> None:
    page = api.client.get("/web/login")
    refused = api.client.post("/web/login", content=b"k=" + b"x" * (2 << 20))
    assert refused.status_code == 413 and refused.headers["content-type"].startswith("text/html")
    for name in SECURITY_HEADERS:
        assert refused.headers[name] == page.headers[name], name
    assert refused.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/docs/oauth2-redirect"])
def test_the_docs_cannot_be_framed(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    _secured(response)
    assert response.headers["content-security-policy"] == "frame-ancestors 'none'"  # its CDN scripts still load


def test_a_route_keeps_a_header_it_set_itself(client: TestClient) -> None:
    static = client.get("/web/static/app.css")
    assert static.status_code == 200
    assert static.headers["cache-control"] == "public, max-age=3600"
    _secured(static)


@pytest.fixture
def loopback(memory: Forethought) -> TestClient:
    settings = ServerSettings(rate_per_second=0, allowed_hosts=hosts_for_bind("127.0.0.1"))
    return TestClient(create_app(memory, settings), raise_server_exceptions=False)


@pytest.mark.parametrize("path", ["/ready", "/metrics", "/health", "/v1/apps/project/subjects", "/web/login", "/docs"])
def test_a_foreign_host_is_refused_before_anything_runs(loopback: TestClient, path: str) -> None:
    refused = loopback.get(path, headers={"Host": "rebound.attacker.example"})
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"]["code"] == "bad_host"
    _secured(refused)
    for host in ("127.0.0.1:8765", "localhost", "LOCALHOST.:80", "[::1]:8765"):
        assert loopback.get("/health", headers={"Host": host}).status_code == 200, host


@settings(max_examples=100, deadline=None, suppress_health_check=FIXTURES)
@given(st.from_regex(r"[a-z0-9.-]{1,40}(:[0-9]{1,5})?", fullmatch=True))
def test_any_other_host_is_refused(loopback: TestClient, host: str) -> None:
    status = loopback.get("/ready", headers={"Host": host}).status_code
    assert status == (200 if host_name(host) in LOOPBACK_HOSTS else 400), host


@pytest.mark.parametrize(
    ("bound", "given", "hosts"),
    [
        ("127.0.0.1", (), LOOPBACK_HOSTS),
        ("::1", (), LOOPBACK_HOSTS),
        ("localhost", ("memory.internal",), (*LOOPBACK_HOSTS, "memory.internal")),
        ("0.0.0.0", (), ()),  # every interface and no list: any host
        ("::", ("Memory.Example.com",), ("memory.example.com",)),
        ("192.168.1.20", (), ("192.168.1.20",)),
        ("fe80::1", (), ("[fe80::1]",)),
    ],
)
def test_the_hosts_a_bound_address_answers(bound: str, given: tuple[str, ...], hosts: tuple[str, ...]) -> None:
    assert hosts_for_bind(bound, given) == hosts


def test_the_allow_list_comes_from_the_environment_too() -> None:
    settings = ServerSettings.load({"FORETHOUGHT_SERVER_ALLOWED_HOSTS": "a.example, b.example"})
    assert settings.allowed_hosts == ("a.example", "b.example")
