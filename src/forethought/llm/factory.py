"""Chat models built from LLMSettings, one builder per provider.

The plugin registry names them (`forethought.plugins`: "groq", "openai", "openai_compatible",
and "fake", the scripted model of `llm/fake.py`); `forethought.plugins.model_from_settings`
picks the one the settings name.
"""

from __future__ import annotations

from typing import Any

from forethought.llm.base import ChatModel
from forethought.llm.config import LLMSettings
from forethought.llm.fake import FakeChatModel
from forethought.llm.openai_compat import OpenAICompatibleModel, is_loopback_url

__all__ = ["fake", "groq", "openai", "openai_compatible"]


def groq(settings: LLMSettings) -> ChatModel:
    """Groq's hosted models; `settings.api_key` is required (LLMSettings checks it)."""
    assert settings.api_key is not None  # LLMSettings checked it
    return OpenAICompatibleModel.groq(settings.api_key, settings.resolved_model, **_options(settings))


def openai(settings: LLMSettings) -> ChatModel:
    """OpenAI's hosted models; `settings.api_key` is required (LLMSettings checks it)."""
    assert settings.api_key is not None
    return OpenAICompatibleModel.openai(settings.api_key, settings.resolved_model, **_options(settings))


def openai_compatible(settings: LLMSettings) -> ChatModel:
    """Any server speaking the OpenAI wire protocol at `settings.base_url` (required)."""
    options = _options(settings)
    base_url = options.pop("base_url")
    # Traces say "local" for a server on this machine, "openai_compatible" for anything else.
    provider = "local" if is_loopback_url(base_url) else "openai_compatible"
    return OpenAICompatibleModel.local(
        base_url, settings.resolved_model, provider=provider, api_key=settings.api_key, **options
    )


def fake(settings: LLMSettings) -> FakeChatModel:
    """The in-process fake with an empty script (named "fake", or `settings.model`): a caller
    scripts it with `queue`; answering past the script raises AssertionError, a test bug."""
    return FakeChatModel(name=settings.model or "fake")


def _options(settings: LLMSettings) -> dict[str, Any]:
    options: dict[str, Any] = {"timeout_s": settings.timeout_s, "max_retries": settings.max_retries}
    if settings.base_url:
        options["base_url"] = settings.base_url
    if settings.structured_output is not None:
        options["supports_json_schema"] = settings.structured_output == "json_schema"
        options["supports_json_mode"] = settings.structured_output != "prompt"
    return options
