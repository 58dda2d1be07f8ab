"""health_check: reachable or not, with a one-line reason, and never an exception."""

from __future__ import annotations

import socket

from forethought.llm import FakeChatModel, FakeOpenAIServer, ProviderUnavailable, health_check

from .conftest import KEY, MakeModel


def test_a_running_server_is_reachable_and_says_whether_it_lists_the_model(make_model: MakeModel) -> None:
    with FakeOpenAIServer(model_id="llama-x", api_key=KEY) as server:
        ok, detail = health_check(make_model(base_url=server.base_url, model="llama-x", api_key=KEY))
        assert ok and "'llama-x' listed" in detail and detail.startswith("openai_compatible:llama-x")
        assert [(r.method, r.path) for r in server.requests] == [("GET", "/v1/models")]


def test_a_wrong_key_is_reported_not_raised(make_model: MakeModel) -> None:
    with FakeOpenAIServer(api_key=KEY) as server:
        ok, detail = health_check(make_model(base_url=server.base_url, api_key="sk-wrong"))
    assert not ok and detail.startswith("provider_auth:") and "sk-wrong" not in detail


def test_a_server_without_a_models_route_is_asked_for_one_token(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.status(404)
    server.reply("p")
    ok, detail = health_check(make_model())
    assert ok and "1-token completion" in detail
    completion = server.requests[1].body
    assert completion["max_tokens"] == 1


def test_a_hanging_server_times_out_quickly(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.hang(5)
    ok, detail = health_check(make_model(timeout_s=30), timeout_s=0.3)
    assert not ok and detail.startswith("provider_timeout:")


def test_a_closed_port_is_unreachable(make_model: MakeModel, delays: list[float]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ok, detail = health_check(make_model(base_url=f"http://127.0.0.1:{port}/v1"))
    assert not ok and detail.startswith("provider_unavailable:")
    assert delays == []  # the probe does not retry


def test_models_without_a_probe_are_asked_one_token_and_any_failure_is_reported() -> None:
    assert health_check(FakeChatModel(["pong"]))[0]
    down = health_check(FakeChatModel([ProviderUnavailable("fake: down")]))
    assert down == (False, "provider_unavailable: fake: down")
    broken = health_check(FakeChatModel([RuntimeError("bug")]))
    assert not broken.reachable and "unexpected RuntimeError: bug" in broken.detail
