"""The ChatModel seam: messages in, text (or validated structured output) out.

Implementations: `OpenAICompatibleModel` (Groq, OpenAI, Ollama, vLLM, llama.cpp server, LM Studio —
one wire protocol), `FakeChatModel` (scripted, for tests). The heuristic path is not a chat model:
each pipeline stage has its own rule-based implementation, chosen when no model is configured.

Errors (all `ProviderError`, a `BackendError`): `ProviderUnavailable` (connection refused, DNS,
5xx after retries), `ProviderTimeout`, `RateLimited` (429 after retries; carries `retry_after`),
`ProviderAuthError` (401/403), `InvalidOutput` (the answer is not what was asked for after the
repair retry). A stage that catches `ProviderError` degrades to its heuristic and says so in
the trace; it never loses the user's message.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from forethought.errors import BackendError

__all__ = [
    "ChatModel",
    "ChatResult",
    "InvalidOutput",
    "Message",
    "ProviderAuthError",
    "ProviderError",
    "ProviderTimeout",
    "ProviderUnavailable",
    "RateLimited",
    "Usage",
]


class Message(BaseModel):
    model_config = ConfigDict(frozen=True)

    role: Literal["system", "user", "assistant"]
    content: str


class Usage(BaseModel):
    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
        )


class ChatResult(BaseModel):
    """One completed call."""

    model_config = ConfigDict(frozen=True)

    text: str
    model: str
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str | None = None  # "stop", "length" (truncated), ...
    latency_ms: float = 0.0
    attempts: int = 1  # HTTP attempts, retries included


class ProviderError(BackendError):
    code = "provider_error"


class ProviderUnavailable(ProviderError):
    code = "provider_unavailable"


class ProviderTimeout(ProviderError):
    code = "provider_timeout"


class ProviderAuthError(ProviderError):
    code = "provider_auth"


class RateLimited(ProviderError):
    code = "rate_limited"

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class InvalidOutput(ProviderError):
    code = "invalid_output"


class ChatModel(ABC):
    """A chat-completion model.

    Capabilities (class or instance attributes; callers branch on these, never on the type):
    - `supports_json_schema`: honours `response_format={"type": "json_schema", ...}`
    - `supports_json_mode`: honours `response_format={"type": "json_object"}`
    `name` is the model id reported in traces ("llama-3.3-70b-versatile", "fake").
    `provider` names where it runs ("groq", "openai", "local", "fake").
    """

    name: str
    provider: str
    supports_json_schema: bool = False
    supports_json_mode: bool = False

    @abstractmethod
    def chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResult:
        """One completion. Raises a ProviderError subclass on failure (after the implementation's
        own retries); never returns partial output silently (`finish_reason` says "length")."""

    def describe(self) -> str:
        return f"{self.provider}:{self.name}"
