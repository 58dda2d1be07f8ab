"""complete_structured over real HTTP: modes, extraction, the one repair retry, and its limits."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from forethought.llm import (
    FakeOpenAIServer,
    InvalidOutput,
    Message,
    ProviderAuthError,
    ProviderUnavailable,
    Usage,
    complete_structured,
    extract_json_object,
)
from forethought.llm.wire import error_detail

from .conftest import MakeModel, user


class Fact(BaseModel):
    statement: str
    confidence: float = Field(ge=0, le=1)


class Facts(BaseModel):
    facts: list[Fact]


GOOD = {"facts": [{"statement": "Ana works at Globex.", "confidence": 0.9}]}


def test_json_mode_sends_json_object_and_puts_the_schema_in_the_system_prompt(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.reply(GOOD, usage=Usage(prompt_tokens=50, completion_tokens=20))
    messages = [Message(role="system", content="Extract facts."), Message(role="user", content="Ana @ Globex")]
    out = complete_structured(make_model(supports_json_mode=True), messages, Facts)
    assert out.value == Facts.model_validate(GOOD)
    assert (out.mode_used, out.attempts, out.model) == ("json_object", 1, "test-model")
    assert out.usage == Usage(prompt_tokens=50, completion_tokens=20)
    body = server.requests[0].body
    assert body["response_format"] == {"type": "json_object"}
    system, question = body["messages"]
    assert system["role"] == "system" and system["content"].startswith("Extract facts.\n\n")
    assert '"confidence"' in system["content"] and "JSON" in system["content"]  # OpenAI wants the word
    assert question == {"role": "user", "content": "Ana @ Globex"}


def test_json_schema_mode_sends_the_schema_as_response_format(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.reply(GOOD)
    out = complete_structured(make_model(supports_json_schema=True), user(), Facts, name="extracted facts!")
    assert out.mode_used == "json_schema"
    response_format = server.requests[0].body["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["name"] == "extracted_facts_"
    assert response_format["json_schema"]["schema"] == Facts.model_json_schema()
    assert server.requests[0].body["messages"][0]["role"] == "system"  # opened with the instruction


def test_prompt_mode_sends_no_response_format(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.reply("Here you go:\n```json\n" + '{"facts": []}' + "\n```\nAnything else?")
    out = complete_structured(make_model(supports_json_mode=False), user(), Facts)
    assert out.mode_used == "prompt" and out.value == Facts(facts=[])
    assert "response_format" not in server.requests[0].body
    assert "JSON Schema" in server.requests[0].body["messages"][0]["content"]


def test_invalid_json_is_repaired_with_the_previous_output_and_the_error(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.invalid_json('{"facts": [oops]}')
    server.reply(GOOD)
    out = complete_structured(make_model(), user(), Facts)
    assert out.attempts == 2 and out.value.facts[0].statement == "Ana works at Globex."
    assert out.raw[0] == '{"facts": [oops]}' and len(out.raw) == 2
    first, repair = (r.body for r in server.requests)
    assert repair["messages"][: len(first["messages"])] == first["messages"]
    echoed, request = repair["messages"][-2:]
    assert echoed == {"role": "assistant", "content": '{"facts": [oops]}'}
    assert request["role"] == "user" and "does not parse" in request["content"]


def test_usage_is_summed_over_the_attempts(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.reply("not JSON at all", usage=Usage(prompt_tokens=80, completion_tokens=4))
    server.reply(GOOD, usage=Usage(prompt_tokens=100, completion_tokens=20))
    out = complete_structured(make_model(), user(), Facts)
    assert out.usage == Usage(prompt_tokens=180, completion_tokens=24)
    assert out.latency_ms > 0


def test_invalid_json_twice_raises_invalid_output_with_a_short_reason(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.invalid_json("x" * 50_000)
    server.invalid_json("still not JSON")
    with pytest.raises(InvalidOutput, match="Facts: no valid answer after a repair retry") as caught:
        complete_structured(make_model(), user(), Facts)
    assert len(str(caught.value)) < 500
    assert len(server.requests) == 2
    echoed = server.requests[1].body["messages"][-2]["content"]
    assert len(echoed) <= 4000  # a huge bad answer is clipped before it is shown back


def test_a_schema_mismatch_is_repaired(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.schema_mismatch({"facts": [{"statement": "Ana works at Globex.", "confidence": 7}]})
    server.reply(GOOD)
    out = complete_structured(make_model(), user(), Facts)
    assert out.attempts == 2
    repair = server.requests[1].body["messages"][-1]["content"]
    assert "facts.0.confidence" in repair and "less than or equal to 1" in repair


def test_a_schema_mismatch_twice_raises_invalid_output_naming_the_field(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.schema_mismatch({"items": []})
    server.schema_mismatch({"facts": "none"})
    with pytest.raises(InvalidOutput, match=r"schema check failed: facts: Input should be a valid list"):
        complete_structured(make_model(), user(), Facts)


def test_a_truncated_answer_is_retried_with_a_larger_budget(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.truncated('{"facts": [{"statement": "Ana works at Glo')
    server.reply(GOOD)
    out = complete_structured(make_model(), user(), Facts, max_tokens=50)
    assert out.attempts == 2
    first, repair = (r.body for r in server.requests)
    assert (first["max_tokens"], repair["max_tokens"]) == (50, 100)
    assert "cut off" in repair["messages"][-1]["content"]


def test_a_truncated_answer_that_happens_to_parse_is_still_not_trusted(
    server: FakeOpenAIServer, make_model: MakeModel
) -> None:
    server.truncated('{"facts": []}')
    server.truncated('{"facts": []}')
    with pytest.raises(InvalidOutput, match="cut off"):
        complete_structured(make_model(), user(), Facts)


def test_provider_errors_propagate_unchanged(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.status(401)
    with pytest.raises(ProviderAuthError):
        complete_structured(make_model(), user(), Facts)


def test_a_provider_error_during_the_repair_propagates(server: FakeOpenAIServer, make_model: MakeModel) -> None:
    server.invalid_json()
    server.status(503)
    with pytest.raises(ProviderUnavailable):
        complete_structured(make_model(max_retries=0), user(), Facts)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '  \n{"a": 1}\n',
        'Sure! Here is the JSON: {"a": 1} Hope that helps.',
        'Sure!\n```json\n{"a": 1}\n```',
        '```\n{"a": 1}\n```',
        'The keys are {a} and {b}.\n{"a": 1}',
    ],
)
def test_the_json_object_is_found_in_prose_and_fences(text: str) -> None:
    assert extract_json_object(text) == {"a": 1}


@pytest.mark.parametrize(("text", "reason"), [("no JSON here", "no JSON object"), ('{"a": ', "does not parse")])
def test_text_without_a_json_object_is_refused(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        extract_json_object(text)


def test_an_answer_or_error_body_nested_too_deep_is_a_clear_failure_not_a_crash() -> None:
    deep = '{"a": ' * 100_000 + "1" + "}" * 100_000
    with pytest.raises(ValueError, match="does not parse"):
        extract_json_object(deep)
    assert error_detail(deep.encode()).startswith('{"a": {"a"')
