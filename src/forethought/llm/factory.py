"""Build the configured ChatModel from LLMSettings (None: the heuristic mode, no model at all)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from forethought.llm.base import ChatModel
from forethought.llm.config import LLMSettings
from forethought.llm.openai_compat import OpenAICompatibleModel, is_loopback_url

__all__ = ["model_from_settings"]


def model_from_settings(settings: LLMSettings) -> ChatModel | None:
    """The chat model `settings` describe, or None when the provider is "none"."""
    if settings.provider == "none":
        return None
    return _BUILDERS[settings.provider](settings, _options(settings))


def _options(settings: LLMSettings) -> dict[str, Any]:
    options: dict[str, Any] = {"timeout_s": settings.timeout_s, "max_retries": settings.max_retries}
    if settings.base_url:
        options["base_url"] = settings.base_url
    if settings.structured_output is not None:
        options["supports_json_schema"] = settings.structured_output == "json_schema"
        options["supports_json_mode"] = settings.structured_output != "prompt"
    return options


def _groq(settings: LLMSettings, options: dict[str, Any]) -> ChatModel:
    assert settings.api_key is not None  # LLMSettings checked it
    return OpenAICompatibleModel.groq(settings.api_key, settings.resolved_model, **options)


def _openai(settings: LLMSettings, options: dict[str, Any]) -> ChatModel:
    assert settings.api_key is not None
    return OpenAICompatibleModel.openai(settings.api_key, settings.resolved_model, **options)


def _compatible(settings: LLMSettings, options: dict[str, Any]) -> ChatModel:
    base_url = options.pop("base_url")
    # Traces say "local" for a server on this machine, "openai_compatible" for anything else.
    provider = "local" if is_loopback_url(base_url) else "openai_compatible"
    return OpenAICompatibleModel.local(
        base_url, settings.resolved_model, provider=provider, api_key=settings.api_key, **options
    )


_BUILDERS: dict[str, Callable[[LLMSettings, dict[str, Any]], ChatModel]] = {
    "groq": _groq,
    "openai": _openai,
    "openai_compatible": _compatible,
}
