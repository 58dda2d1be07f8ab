"""FakeOpenAIServer itself: routes, recording, scripting, shutdown."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from forethought.llm import FakeOpenAIServer
from forethought.llm.fake_server import RecordedRequest, Reply, Status

from .conftest import KEY


def test_it_listens_on_loopback_and_lists_its_model() -> None:
    with FakeOpenAIServer(model_id="m-1") as server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
        answer = httpx.get(f"{server.base_url}/models")
    assert answer.json()["data"][0]["id"] == "m-1"
    with pytest.raises(RuntimeError):
        _ = server.base_url  # stopped


def test_requests_are_recorded_without_the_authorization_value(server: FakeOpenAIServer) -> None:
    httpx.post(
        f"{server.base_url}/chat/completions",
        json={"model": "m", "messages": []},
        headers={"Authorization": f"Bearer {KEY}", "X-Trace": "t1"},
    )
    (request,) = server.requests
    assert (request.method, request.path, request.body) == (
        "POST",
        "/v1/chat/completions",
        {"model": "m", "messages": []},
    )
    assert request.auth_scheme == "Bearer" and request.auth_matches is None
    assert request.headers["x-trace"] == "t1" and "authorization" not in request.headers
    assert KEY not in repr(request)


def test_unknown_routes_are_404_and_consume_nothing(server: FakeOpenAIServer) -> None:
    server.reply("kept")
    assert httpx.post(f"{server.base_url}/embeddings", json={}).status_code == 404
    assert server.pending == 1


def test_a_wrong_key_gets_401_before_the_script(make_server_key: FakeOpenAIServer) -> None:
    make_server_key.reply("kept")
    url = f"{make_server_key.base_url}/chat/completions"
    assert httpx.post(url, json={}, headers={"Authorization": "Bearer nope"}).status_code == 401
    assert make_server_key.pending == 1
    assert httpx.post(url, json={}, headers={"Authorization": f"Bearer {KEY}"}).status_code == 200
    assert [r.auth_matches for r in make_server_key.requests] == [False, True]


def test_callable_behaviours_answer_from_the_request(server: FakeOpenAIServer) -> None:
    def by_prompt(request: RecordedRequest) -> Reply | Status:
        last = request.body["messages"][-1]["content"]
        return Reply(last.upper()) if last else Status(400)

    server.set_default(by_prompt)
    url = f"{server.base_url}/chat/completions"
    answer = httpx.post(url, json={"model": "m", "messages": [{"role": "user", "content": "hi"}]}).json()
    assert answer["choices"][0]["message"]["content"] == "HI"
    assert answer["usage"]["total_tokens"] == answer["usage"]["prompt_tokens"] + answer["usage"]["completion_tokens"]
    assert httpx.post(url, json={"messages": [{"role": "user", "content": ""}]}).status_code == 400


def test_error_answers_carry_an_openai_error_body_and_retry_after(server: FakeOpenAIServer) -> None:
    server.status(429, retry_after=1.5, message="slow down")
    answer = httpx.post(f"{server.base_url}/chat/completions", json={})
    assert answer.status_code == 429 and answer.headers["retry-after"] == "1.5"
    assert answer.json()["error"]["message"] == "slow down"


def test_stopping_does_not_wait_for_a_hang() -> None:
    server = FakeOpenAIServer().start()
    server.hang(60)
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(f"{server.base_url}/chat/completions", json={}, timeout=0.2)
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 5


@pytest.fixture
def make_server_key() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(api_key=KEY) as server:
        yield server
