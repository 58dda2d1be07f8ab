"""OpenAICompatibleModel over real HTTP against FakeOpenAIServer: answers, retries, every failure."""

from __future__ import annotations

import logging
import socket

import pytest

from forethought.errors import InvalidInput
from forethought.llm import (
    FakeOpenAIServer,
    InvalidOutput,
    Message,
    OpenAICompatibleModel,
    ProviderAuthError,
    ProviderError,
    ProviderTimeout,
    ProviderUnavailable,
    RateLimited,
    Usage,
)
from forethought.llm.fake_server import Behaviour, Hang, Raw, Status

from .conftest import KEY, Delays, MakeModel, user

# -- a good answer ----------------------------------------------------------------------------


def test_a_valid_answer_carries_content_usage_and_finish_reason(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.reply("Paris.", usage=Usage(prompt_tokens=12, completion_tokens=3))
    result = make_model().chat(user("Capital of France?"))
    assert result.text == "Paris."
    assert result.usage == Usage(prompt_tokens=12, completion_tokens=3)
    assert result.finish_reason == "stop"
    assert result.model == "test-model"
    assert result.attempts == 1
    assert result.latency_ms > 0


def test_a_missing_usage_block_counts_as_zero_tokens(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.reply("ok", usage="omit")
    assert make_model().chat(user()).usage == Usage()


def test_a_truncated_answer_is_returned_with_finish_reason_length(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.truncated('{"facts": [{"stat')
    result = make_model().chat(user())
    assert result.finish_reason == "length"
    assert result.text == '{"facts": [{"stat'


def test_the_request_body_carries_model_messages_temperature_and_max_tokens(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    messages = [Message(role="system", content="Be brief."), Message(role="user", content="Hi")]
    make_model(model="llama-x").chat(messages, max_tokens=77, temperature=0.3)
    (request,) = server.requests
    assert (request.method, request.path) == ("POST", "/v1/chat/completions")
    assert request.body == {
        "model": "llama-x",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
        "temperature": 0.3,
        "max_tokens": 77,
    }
    assert request.headers["content-type"] == "application/json"


def test_response_format_is_passed_through(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    make_model().chat(user(), response_format={"type": "json_object"})
    assert server.requests[0].body["response_format"] == {"type": "json_object"}


def test_the_key_is_sent_as_a_bearer_token(make_model: MakeModel) -> None:
    with FakeOpenAIServer(api_key=KEY) as keyed:
        make_model(base_url=keyed.base_url, api_key=KEY).chat(user())
        (request,) = keyed.requests
    assert request.auth_scheme == "Bearer"
    assert request.auth_matches is True
    assert "authorization" not in request.headers


def test_no_authorization_header_without_a_key(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    make_model().chat(user())
    assert server.requests[0].auth_scheme is None


# -- rate limits ------------------------------------------------------------------------------


def test_429_then_success_waits_for_retry_after(
    server: FakeOpenAIServer, make_model: MakeModel, delays: Delays
) -> None:
    server.status(429, retry_after=0.05)
    server.reply("done")
    result = make_model().chat(user())
    assert result.text == "done"
    assert result.attempts == 2
    assert delays == [0.05]


def test_429_without_retry_after_backs_off_exponentially_with_jitter(
    server: FakeOpenAIServer, make_model: MakeModel, delays: Delays
) -> None:
    server.status(429, times=2)
    server.reply("done")
    make_model(backoff_base_s=0.1).chat(user())
    assert len(delays) == 2
    assert 0.05 <= delays[0] <= 0.1 and 0.1 <= delays[1] <= 0.2


def test_429_forever_raises_rate_limited_with_retry_after(
    server: FakeOpenAIServer, make_model: MakeModel, delays: Delays
) -> None:
    server.set_default(Status(429, retry_after=0.02))
    with pytest.raises(RateLimited) as caught:
        make_model(max_retries=2).chat(user())
    assert caught.value.retry_after == 0.02
    assert len(server.requests) == 3
    assert delays == [0.02, 0.02]


def test_a_retry_after_beyond_the_cap_fails_at_once(
    server: FakeOpenAIServer, make_model: MakeModel, delays: Delays
) -> None:
    server.status(429, retry_after=120)
    with pytest.raises(RateLimited) as caught:
        make_model(retry_after_max_s=10).chat(user())
    assert caught.value.retry_after == 120
    assert len(server.requests) == 1 and delays == []


def test_retry_after_is_really_slept_by_default(server: FakeOpenAIServer) -> None:
    server.status(429, retry_after=0.01)
    server.reply("done")
    with OpenAICompatibleModel.local(server.base_url, "m") as model:
        assert model.chat(user()).attempts == 2


# -- server errors and connection trouble ---------------------------------------------------


def test_500_then_success(server: FakeOpenAIServer, make_model: MakeModel, delays: Delays) -> None:
    server.status(500)
    server.reply("recovered")
    result = make_model().chat(user())
    assert (result.text, result.attempts, len(delays)) == ("recovered", 2, 1)


def test_5xx_forever_raises_provider_unavailable_after_the_retries(
    server: FakeOpenAIServer, make_model: MakeModel, delays: Delays
) -> None:
    server.set_default(Status(503))
    with pytest.raises(ProviderUnavailable, match="HTTP 503 after 3 attempt"):
        make_model(max_retries=2, backoff_base_s=0.5).chat(user())
    assert len(server.requests) == 3
    assert 0.25 <= delays[0] <= 0.5 and 0.5 <= delays[1] <= 1.0


def test_a_hang_past_the_timeout_raises_provider_timeout_without_retrying(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.hang(5)
    with pytest.raises(ProviderTimeout, match=r"0\.3s"):
        make_model(timeout_s=0.3).chat(user())
    assert len(server.requests) == 1


def test_a_connection_closed_without_an_answer_is_retried(
    server: FakeOpenAIServer, make_model: MakeModel, delays: Delays
) -> None:
    server.hang(0)  # closes the connection at once, no response
    server.reply("second time lucky")
    assert make_model().chat(user()).text == "second time lucky"
    assert len(delays) == 1


def test_connection_refused_raises_provider_unavailable(make_model: MakeModel, delays: Delays) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # nothing listens on `port` now
    with pytest.raises(ProviderUnavailable, match="cannot reach"):
        make_model(base_url=f"http://127.0.0.1:{port}/v1", max_retries=1).chat(user())
    assert len(delays) == 1


@pytest.mark.parametrize("code", [401, 403])
def test_auth_failures_raise_provider_auth_error_without_retrying(
    server: FakeOpenAIServer, make_model: MakeModel, delays: Delays, code: int
) -> None:
    server.status(code, message=f"Incorrect API key provided: {KEY}")
    with pytest.raises(ProviderAuthError) as caught:
        make_model(api_key=KEY).chat(user())
    assert len(server.requests) == 1 and delays == []
    assert KEY not in str(caught.value) and KEY[:12] not in str(caught.value)


def test_other_4xx_is_a_provider_error_with_the_reason_and_no_retry(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.status(400, message="response_format json_schema is not supported by this model")
    with pytest.raises(ProviderError, match=r"HTTP 400.*json_schema is not supported") as caught:
        make_model().chat(user())
    assert type(caught.value) is ProviderError
    assert len(server.requests) == 1


# -- malformed answers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"<html>Bad gateway</html>", "Invalid JSON"),
        (b'{"object": "chat.completion"}', "choices"),
        (b'{"choices": []}', "choices"),
        (b'{"choices": [{"message": {"role": "assistant", "content": null}}]}', "content is missing"),
        (b'{"choices": [{"message": {"content": null, "refusal": "I cannot help"}}]}', "refused: I cannot help"),
        (b'{"choices": [{"message": {"content": 42}}]}', "content"),
    ],
)
def test_a_malformed_body_raises_invalid_output(
    server: FakeOpenAIServer, make_model: MakeModel, body: bytes, reason: str
) -> None:
    server.raw(body)
    with pytest.raises(InvalidOutput, match=reason):
        make_model().chat(user())


# -- secrets ---------------------------------------------------------------------------------


def test_the_key_never_appears_in_reprs_errors_or_logs(
    server: FakeOpenAIServer, make_model: MakeModel, caplog: pytest.LogCaptureFixture
) -> None:
    model = make_model(api_key=KEY, max_retries=1)
    assert KEY not in repr(model) and "api_key=set" in repr(model)
    failures: list[BaseException] = []
    scripts: list[list[Behaviour]] = [
        [Status(401, message=KEY)],
        [Status(500, message=f"upstream rejected {KEY}")] * 2,
        [Status(429, message=f"slow down {KEY}")] * 2,
        [Status(400, message=f"bad request for key {KEY}")],
        [Raw(KEY.encode())],
        [Hang(2)],
    ]
    for script in scripts:
        server.push(*script)
        with caplog.at_level(logging.DEBUG), pytest.raises(ProviderError) as caught:
            make_model(api_key=KEY, max_retries=1, timeout_s=0.3).chat(user())
        failures.append(caught.value)
    for exc in failures:
        chain: BaseException | None = exc
        while chain is not None:
            assert KEY not in str(chain) and KEY not in repr(chain), repr(chain)
            chain = chain.__cause__
    assert KEY not in caplog.text


# -- presets and arguments ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"base_url": "api.groq.com/openai/v1"}, {"model": ""}, {"timeout_s": 0}, {"max_retries": -1}],
)
def test_bad_arguments_are_refused(options: dict[str, object]) -> None:
    arguments: dict[str, object] = {"base_url": "http://127.0.0.1:1/v1", "model": "m", **options}
    with pytest.raises(InvalidInput):
        OpenAICompatibleModel(**arguments)  # type: ignore[arg-type]


def test_one_pooled_connection_serves_successive_calls(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    model = make_model()
    for _ in range(3):
        model.chat(user())
    assert len({r.client_port for r in server.requests}) == 1
