"""FakeChatModel: a scripted, in-process ChatModel for unit tests of the stages that use one.

Each call takes the next scripted step: a text (answered with finish_reason "stop"), a
`ChatResult` (answered as is, e.g. to script a truncated answer), an exception instance (raised,
e.g. `ProviderTimeout("...")` to test degradation) or a callable `(messages) -> str | ChatResult`
(computed from the prompt). With the script empty, `default` answers; without a default an
exhausted script is a test bug and raises `AssertionError`. Every call is recorded in `calls`.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from forethought.llm.base import ChatModel, ChatResult, Message, Usage

__all__ = ["FakeCall", "FakeChatModel", "Step"]

Step = str | ChatResult | BaseException | Callable[[Sequence[Message]], str | ChatResult]


@dataclass(frozen=True)
class FakeCall:
    """One call as the fake received it."""

    messages: tuple[Message, ...]
    max_tokens: int
    temperature: float
    response_format: dict[str, Any] | None


class FakeChatModel(ChatModel):
    def __init__(
        self,
        script: Iterable[Step] = (),
        *,
        default: Step | None = None,
        name: str = "fake",
        supports_json_schema: bool = False,
        supports_json_mode: bool = False,
    ) -> None:
        self.name = name
        self.provider = "fake"
        self.supports_json_schema = supports_json_schema
        self.supports_json_mode = supports_json_mode
        self.default = default
        self.calls: list[FakeCall] = []
        self._script: deque[Step] = deque(script)
        self._lock = threading.Lock()  # stages may call from worker threads

    def queue(self, *steps: Step) -> None:
        """Add steps to the end of the script."""
        with self._lock:
            self._script.extend(steps)

    @property
    def remaining(self) -> int:
        return len(self._script)

    def chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResult:
        with self._lock:
            self.calls.append(FakeCall(tuple(messages), max_tokens, temperature, response_format))
            if self._script:
                step = self._script.popleft()
            elif self.default is not None:
                step = self.default
            else:
                raise AssertionError(f"FakeChatModel: no scripted answer left for call {len(self.calls)}")
        if isinstance(step, BaseException):
            raise step
        answer = step(messages) if callable(step) else step
        if isinstance(answer, ChatResult):
            return answer
        return ChatResult(text=answer, model=self.name, usage=_estimate(messages, answer), finish_reason="stop")


def _estimate(messages: Sequence[Message], text: str) -> Usage:
    """Deterministic token counts (about four characters a token) so usage sums can be tested."""
    prompt = sum(len(m.content) for m in messages)
    return Usage(prompt_tokens=prompt // 4 + 1, completion_tokens=len(text) // 4 + 1)
