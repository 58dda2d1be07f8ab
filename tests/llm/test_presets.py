"""The provider presets: URL, capabilities and wire details of Groq, OpenAI and local servers."""

from __future__ import annotations

from forethought.llm import FakeOpenAIServer, OpenAICompatibleModel
from forethought.llm.openai_compat import GROQ_BASE_URL, OPENAI_BASE_URL

from .conftest import KEY, user


def test_presets_name_the_provider_url_and_capabilities() -> None:
    with OpenAICompatibleModel.groq(KEY) as groq:
        assert (groq.provider, groq.name, groq.base_url) == ("groq", "llama-3.3-70b-versatile", GROQ_BASE_URL)
        assert groq.supports_json_mode and not groq.supports_json_schema
        assert groq.describe() == "groq:llama-3.3-70b-versatile"
    with OpenAICompatibleModel.groq(KEY, model="openai/gpt-oss-120b") as gpt_oss:
        assert gpt_oss.supports_json_schema
    with OpenAICompatibleModel.openai(KEY, model="gpt-4o-mini") as openai:
        assert (openai.provider, openai.base_url) == ("openai", OPENAI_BASE_URL)
        assert openai.supports_json_schema
    with OpenAICompatibleModel.local("http://127.0.0.1:11434/v1", "qwen2.5") as local:
        assert local.provider == "local" and local.supports_json_mode and not local.supports_json_schema


def test_the_openai_preset_sends_max_completion_tokens(server: FakeOpenAIServer) -> None:
    with OpenAICompatibleModel.openai(KEY, base_url=server.base_url) as model:
        model.chat(user(), max_tokens=9)
    body = server.requests[0].body
    assert body["max_completion_tokens"] == 9 and "max_tokens" not in body
