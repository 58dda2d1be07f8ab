"""LLMSettings.from_env and model_from_settings: which model the environment asks for."""

from __future__ import annotations

import pytest

from forethought.errors import InvalidInput
from forethought.llm import FakeOpenAIServer, LLMSettings, OpenAICompatibleModel
from forethought.llm.openai_compat import GROQ_BASE_URL, OPENAI_BASE_URL
from forethought.plugins import model_from_settings

from .conftest import KEY, user

OTHER_KEY = "sk-other-0123456789abcdef0123456789"


def _model(settings: LLMSettings) -> OpenAICompatibleModel:
    model = model_from_settings(settings)
    assert isinstance(model, OpenAICompatibleModel)
    model.close()
    return model


def test_no_variables_means_the_heuristic_mode() -> None:
    settings = LLMSettings.from_env({"PATH": "/usr/bin", "HOME": "/root"})
    assert settings.provider == "none"
    assert model_from_settings(settings) is None


def test_a_groq_key_selects_groq_with_llama_3_3() -> None:
    settings = LLMSettings.from_env({"GROQ_API_KEY": KEY})
    assert (settings.provider, settings.resolved_model) == ("groq", "llama-3.3-70b-versatile")
    assert settings.api_key is not None and settings.api_key.get_secret_value() == KEY
    model = _model(settings)
    assert (model.provider, model.base_url, model.name) == ("groq", GROQ_BASE_URL, "llama-3.3-70b-versatile")
    assert model.supports_json_mode and not model.supports_json_schema


def test_groq_wins_over_openai_and_openai_is_used_alone() -> None:
    assert LLMSettings.from_env({"GROQ_API_KEY": KEY, "OPENAI_API_KEY": OTHER_KEY}).provider == "groq"
    settings = LLMSettings.from_env({"OPENAI_API_KEY": OTHER_KEY})
    assert (settings.provider, settings.resolved_model) == ("openai", "gpt-4o-mini")
    model = _model(settings)
    assert (model.provider, model.base_url) == ("openai", OPENAI_BASE_URL) and model.supports_json_schema


def test_a_base_url_selects_an_openai_compatible_server_and_gets_none_of_the_provider_keys() -> None:
    env = {
        "GROQ_API_KEY": KEY,
        "OPENAI_API_KEY": OTHER_KEY,
        "FORETHOUGHT_LLM_BASE_URL": "http://127.0.0.1:11434/v1",
        "FORETHOUGHT_LLM_MODEL": "qwen2.5:0.5b",
    }
    settings = LLMSettings.from_env(env)
    assert (settings.provider, settings.model, settings.api_key) == ("openai_compatible", "qwen2.5:0.5b", None)
    model = _model(settings)
    assert (model.provider, model.name, model.base_url) == ("local", "qwen2.5:0.5b", "http://127.0.0.1:11434/v1")


def test_an_openai_compatible_server_takes_its_own_key_and_a_default_model_name() -> None:
    settings = LLMSettings.from_env(
        {"FORETHOUGHT_LLM_BASE_URL": "https://llm.example.com/v1", "FORETHOUGHT_LLM_API_KEY": OTHER_KEY}
    )
    assert settings.api_key is not None and settings.api_key.get_secret_value() == OTHER_KEY
    model = _model(settings)
    assert (model.provider, model.name) == ("openai_compatible", "local")


def test_provider_none_forces_the_heuristic_mode() -> None:
    env = {"FORETHOUGHT_LLM_PROVIDER": "none", "GROQ_API_KEY": KEY, "FORETHOUGHT_LLM_BASE_URL": "http://x/v1"}
    assert LLMSettings.from_env(env) == LLMSettings()


def test_explicit_provider_and_model_override_the_detection() -> None:
    env = {
        "GROQ_API_KEY": KEY,
        "OPENAI_API_KEY": OTHER_KEY,
        "FORETHOUGHT_LLM_PROVIDER": "OpenAI",
        "FORETHOUGHT_LLM_MODEL": "gpt-4.1-mini",
        "FORETHOUGHT_LLM_TIMEOUT_S": "12.5",
        "FORETHOUGHT_LLM_MAX_RETRIES": "0",
    }
    settings = LLMSettings.from_env(env)
    assert (settings.provider, settings.model, settings.timeout_s, settings.max_retries) == (
        "openai",
        "gpt-4.1-mini",
        12.5,
        0,
    )
    assert settings.api_key is not None and settings.api_key.get_secret_value() == OTHER_KEY
    model = _model(settings)
    assert (model.timeout_s, model.max_retries) == (12.5, 0)


def test_structured_output_overrides_the_capabilities() -> None:
    base = {"FORETHOUGHT_LLM_BASE_URL": "http://127.0.0.1:1234/v1"}
    expected = {"json_schema": (True, True), "json_object": (False, True), "prompt": (False, False)}
    for mode, (schema, json_mode) in expected.items():
        model = _model(LLMSettings.from_env({**base, "FORETHOUGHT_LLM_STRUCTURED_OUTPUT": mode}))
        assert (model.supports_json_schema, model.supports_json_mode) == (schema, json_mode), mode


def test_empty_variables_count_as_unset() -> None:
    assert LLMSettings.from_env({"GROQ_API_KEY": "", "FORETHOUGHT_LLM_PROVIDER": "  "}).provider == "none"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"FORETHOUGHT_LLM_PROVIDER": "groq"}, "GROQ_API_KEY"),
        ({"FORETHOUGHT_LLM_PROVIDER": "openai_compatible"}, "FORETHOUGHT_LLM_BASE_URL"),
        ({"FORETHOUGHT_LLM_PROVIDER": "anthropic", "GROQ_API_KEY": KEY}, "FORETHOUGHT_LLM_PROVIDER"),
        ({"GROQ_API_KEY": KEY, "FORETHOUGHT_LLM_TIMEOUT_S": "soon"}, "FORETHOUGHT_LLM_TIMEOUT_S"),
        ({"GROQ_API_KEY": KEY, "FORETHOUGHT_LLM_MAX_RETRIES": "-1"}, "FORETHOUGHT_LLM_MAX_RETRIES"),
        ({"FORETHOUGHT_LLM_BASE_URL": "localhost:8080"}, "http://"),
    ],
)
def test_bad_configuration_is_invalid_input_that_names_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(InvalidInput, match=message) as caught:
        LLMSettings.from_env(env)
    assert KEY not in str(caught.value)


def test_the_key_is_hidden_in_the_settings_repr() -> None:
    settings = LLMSettings.from_env({"GROQ_API_KEY": KEY})
    assert KEY not in repr(settings) and KEY not in str(settings)
    assert KEY not in settings.model_dump_json()


def test_settings_build_a_working_model(server: FakeOpenAIServer) -> None:
    server.reply("hello from the fake")
    settings = LLMSettings(provider="openai_compatible", base_url=server.base_url, model="m", api_key=KEY)
    model = model_from_settings(settings)
    assert isinstance(model, OpenAICompatibleModel)
    with model:
        assert model.chat(user()).text == "hello from the fake"
    assert server.requests[0].auth_scheme == "Bearer"
