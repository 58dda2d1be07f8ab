"""Fixtures for the chat-model suite: a real loopback server and clients that never really sleep."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from forethought.llm import FakeOpenAIServer, Message, OpenAICompatibleModel

KEY = "sk-test-7f3a9c2e1b5d4f60a8e9c7b6d5e4f3a2"  # a fake key; the tests check it never leaks


class Delays(list[float]):
    """Stands in for time.sleep between retries: records the delays, waits for none."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as s:
        yield s


@pytest.fixture
def delays() -> Delays:
    return Delays()


MakeModel = Callable[..., OpenAICompatibleModel]


@pytest.fixture
def make_model(server: FakeOpenAIServer, delays: Delays) -> Iterator[MakeModel]:
    """OpenAICompatibleModel against `server`: short timeouts, recorded (not slept) backoff."""
    made: list[OpenAICompatibleModel] = []

    def make(**options: Any) -> OpenAICompatibleModel:
        options.setdefault("base_url", server.base_url)
        options.setdefault("model", "test-model")
        options.setdefault("timeout_s", 2.0)
        options.setdefault("sleep", delays)
        model = OpenAICompatibleModel(**options)
        made.append(model)
        return model

    yield make
    for model in made:
        model.close()


def user(text: str = "hello") -> list[Message]:
    return [Message(role="user", content=text)]
