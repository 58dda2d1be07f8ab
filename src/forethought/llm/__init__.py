"""Chat models: the `ChatModel` seam (`base.py`), one OpenAI-compatible HTTP client for every
hosted or local provider, structured (pydantic-validated) answers, configuration, and the fakes
that tests and benchmarks use (`FakeChatModel` in process, `FakeOpenAIServer` on loopback)."""

from __future__ import annotations

from forethought.llm.base import (
    ChatModel,
    ChatResult,
    InvalidOutput,
    Message,
    ProviderAuthError,
    ProviderError,
    ProviderTimeout,
    ProviderUnavailable,
    RateLimited,
    Usage,
)
from forethought.llm.config import LLMSettings
from forethought.llm.fake import FakeCall, FakeChatModel
from forethought.llm.fake_server import FakeOpenAIServer, RecordedRequest
from forethought.llm.health import Health, health_check
from forethought.llm.openai_compat import OpenAICompatibleModel
from forethought.llm.structured import Structured, StructuredMode, complete_structured, extract_json_object

__all__ = [
    "ChatModel",
    "ChatResult",
    "FakeCall",
    "FakeChatModel",
    "FakeOpenAIServer",
    "Health",
    "InvalidOutput",
    "LLMSettings",
    "Message",
    "OpenAICompatibleModel",
    "ProviderAuthError",
    "ProviderError",
    "ProviderTimeout",
    "ProviderUnavailable",
    "RateLimited",
    "RecordedRequest",
    "Structured",
    "StructuredMode",
    "Usage",
    "complete_structured",
    "extract_json_object",
    "health_check",
]
