"""FakeChatModel: the in-process scripted model other stages test against."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from forethought.llm import (
    ChatModel,
    ChatResult,
    FakeChatModel,
    InvalidOutput,
    Message,
    ProviderTimeout,
    complete_structured,
)

from .conftest import user


class Answer(BaseModel):
    city: str


def test_it_is_a_chat_model_named_fake() -> None:
    fake = FakeChatModel()
    assert isinstance(fake, ChatModel)
    assert (fake.name, fake.provider, fake.describe()) == ("fake", "fake", "fake:fake")
    assert not fake.supports_json_mode and not fake.supports_json_schema
    flagged = FakeChatModel(supports_json_mode=True, supports_json_schema=True)
    assert flagged.supports_json_mode and flagged.supports_json_schema


def test_scripted_steps_answer_in_order_and_every_call_is_recorded() -> None:
    def echo(messages: object) -> str:
        assert isinstance(messages, list | tuple)
        return f"you said {messages[-1].content}"

    truncated = ChatResult(text='{"ci', model="fake", finish_reason="length")
    fake = FakeChatModel(["first", echo])
    fake.queue(truncated, ProviderTimeout("scripted timeout"))

    one = fake.chat(user("a"), max_tokens=10, temperature=0.5, response_format={"type": "json_object"})
    assert (one.text, one.finish_reason, one.model) == ("first", "stop", "fake")
    assert one.usage.prompt_tokens > 0 and one.usage.completion_tokens > 0
    assert fake.chat(user("b")).text == "you said b"
    assert fake.chat(user("c")) is truncated
    with pytest.raises(ProviderTimeout, match="scripted timeout"):
        fake.chat(user("d"))

    assert [c.messages[-1].content for c in fake.calls] == ["a", "b", "c", "d"]
    assert (fake.calls[0].max_tokens, fake.calls[0].temperature) == (10, 0.5)
    assert fake.calls[0].response_format == {"type": "json_object"}
    assert fake.remaining == 0


def test_the_default_answers_once_the_script_is_done() -> None:
    fake = FakeChatModel(["scripted"], default="default")
    assert [fake.chat(user()).text for _ in range(3)] == ["scripted", "default", "default"]


def test_an_exhausted_script_without_default_is_a_test_bug() -> None:
    fake = FakeChatModel()
    with pytest.raises(AssertionError, match="no scripted answer left for call 1"):
        fake.chat(user())


def test_structured_answers_work_against_the_fake() -> None:
    fake = FakeChatModel(['{"city": 3}', '{"city": "Lisbon"}'])
    out = complete_structured(fake, [Message(role="user", content="Where?")], Answer)
    assert out.value == Answer(city="Lisbon")
    assert (out.attempts, out.mode_used) == (2, "prompt")
    assert out.raw == ('{"city": 3}', '{"city": "Lisbon"}')
    assert "city" in fake.calls[1].messages[-1].content  # the repair names the failing field


def test_structured_gives_up_after_one_repair_against_the_fake() -> None:
    fake = FakeChatModel(default=ChatResult(text='{"city": "Lis', model="fake", finish_reason="length"))
    with pytest.raises(InvalidOutput, match="cut off"):
        complete_structured(fake, user(), Answer, max_tokens=20)
    assert [c.max_tokens for c in fake.calls] == [20, 40]
