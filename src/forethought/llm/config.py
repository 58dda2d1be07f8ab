"""LLMSettings: which chat model to use, as a typed value built at the edge.

The library never reads the environment: an entry point hands the process environment to
`LLMSettings.from_env` (or nests `LLMSettings` in its own settings) and passes the result to
`forethought.plugins.model_from_settings`.

Environment, in order of precedence:
- FORETHOUGHT_LLM_PROVIDER (none | groq | openai | openai_compatible) forces the provider;
  "none" means the heuristic mode even when keys are set.
- Otherwise FORETHOUGHT_LLM_BASE_URL picks openai_compatible (the Forethought-specific variable is
  the more deliberate choice), then GROQ_API_KEY picks groq, then OPENAI_API_KEY picks openai;
  with none of them set, the provider is "none".
- FORETHOUGHT_LLM_MODEL overrides the provider's default model; FORETHOUGHT_LLM_API_KEY overrides
  the provider's key variable; FORETHOUGHT_LLM_TIMEOUT_S, FORETHOUGHT_LLM_MAX_RETRIES and
  FORETHOUGHT_LLM_STRUCTURED_OUTPUT (json_schema | json_object | prompt) tune the client.
A third-party server (openai_compatible) is only ever sent FORETHOUGHT_LLM_API_KEY, never the
Groq or OpenAI key. Empty variables count as unset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator

from forethought.errors import InvalidInput
from forethought.llm.openai_compat import GROQ_DEFAULT_MODEL, OPENAI_DEFAULT_MODEL
from forethought.llm.structured import StructuredMode

__all__ = ["LLMSettings", "Provider"]

Provider = Literal["none", "groq", "openai", "openai_compatible"]

_DEFAULT_MODELS: dict[str, str] = {"groq": GROQ_DEFAULT_MODEL, "openai": OPENAI_DEFAULT_MODEL}
_KEY_VARIABLES: dict[str, str] = {"groq": "GROQ_API_KEY", "openai": "OPENAI_API_KEY"}
_PREFIX = "FORETHOUGHT_LLM_"


class LLMSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: Provider = "none"
    model: str | None = None  # None: the provider's default ("local" for openai_compatible)
    base_url: str | None = None  # required for openai_compatible; overrides groq/openai's URL
    api_key: SecretStr | None = None
    timeout_s: float = Field(default=30.0, gt=0, le=600)
    max_retries: int = Field(default=2, ge=0, le=10)
    structured_output: StructuredMode | None = None  # None: what the provider is known to support

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.provider in _KEY_VARIABLES and self.api_key is None:
            variable = _KEY_VARIABLES[self.provider]
            raise ValueError(f"provider {self.provider} needs an API key ({variable} or {_PREFIX}API_KEY)")
        if self.provider == "openai_compatible" and not self.base_url:
            raise ValueError(f"provider openai_compatible needs a base URL ({_PREFIX}BASE_URL)")
        if self.base_url and not self.base_url.startswith(("http://", "https://")):
            raise ValueError("base_url must start with http:// or https://")
        return self

    @property
    def resolved_model(self) -> str:
        return self.model or _DEFAULT_MODELS.get(self.provider, "local")

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> LLMSettings:
        """Settings from an explicit mapping (the entry point's environment); InvalidInput if wrong."""
        env = {k: v.strip() for k, v in environ.items() if v.strip()}

        def var(name: str) -> str | None:
            return env.get(_PREFIX + name)

        forced = var("PROVIDER")
        provider: str
        if forced is not None:
            provider = forced.lower()
        elif var("BASE_URL"):
            provider = "openai_compatible"
        elif "GROQ_API_KEY" in env:
            provider = "groq"
        elif "OPENAI_API_KEY" in env:
            provider = "openai"
        else:
            provider = "none"
        if provider == "none":
            return cls()
        key = var("API_KEY") or (env.get(_KEY_VARIABLES[provider]) if provider in _KEY_VARIABLES else None)
        data = {
            "provider": provider,
            "model": var("MODEL"),
            "base_url": var("BASE_URL"),
            "api_key": key,
            "timeout_s": var("TIMEOUT_S"),
            "max_retries": var("MAX_RETRIES"),
            "structured_output": var("STRUCTURED_OUTPUT"),
        }
        try:
            return cls.model_validate({k: v for k, v in data.items() if v is not None})
        except ValidationError as exc:
            raise InvalidInput(f"LLM configuration: {_summary(exc)}") from None


def _summary(exc: ValidationError) -> str:
    """The errors without the offending values (one of them could be a key)."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"])
        name = f"{_PREFIX}{where.upper()}: " if where else ""
        parts.append(f"{name}{error['msg']}")
    return "; ".join(parts)
