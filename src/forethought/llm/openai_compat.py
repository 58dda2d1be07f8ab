"""One client for every OpenAI-compatible server: Groq, OpenAI, Ollama, vLLM, llama.cpp, LM Studio.

POST {base_url}/chat/completions over a pooled, synchronous httpx client. Failures, after retries:

    401, 403                  ProviderAuthError    never retried
    429                       RateLimited          retried; Retry-After honoured up to a cap
    5xx, connection errors    ProviderUnavailable  retried, exponential backoff with jitter
    connect or read timeout   ProviderTimeout      not retried: the call already spent its budget
    other 4xx                 ProviderError        the request itself was refused; not retried
    2xx with a bad body       InvalidOutput

The API key travels only in the Authorization header: it is never put in a message, a log line
or a repr, and it is blanked out of any error text a provider echoes back.
"""

from __future__ import annotations

import ipaddress
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Self

import httpx
from pydantic import SecretStr

from forethought.errors import InvalidInput
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
)
from forethought.llm.wire import chat_body, error_detail, parse_completion, parse_model_list

__all__ = [
    "GROQ_BASE_URL",
    "GROQ_DEFAULT_MODEL",
    "GROQ_JSON_SCHEMA_MODELS",
    "OPENAI_BASE_URL",
    "OPENAI_DEFAULT_MODEL",
    "OpenAICompatibleModel",
    "is_loopback_url",
]

log = logging.getLogger(__name__)

GROQ_BASE_URL = "https://api.groq.com/openai/v1"
GROQ_DEFAULT_MODEL = "llama-3.3-70b-versatile"
# Groq documents json_schema ("structured outputs") only for some models, and answers 400 to it on
# the others (llama-3.3-70b-versatile among them). These are the ones we are sure of; every other
# Groq model gets json_object, which Groq supports reliably, with the schema in the prompt.
GROQ_JSON_SCHEMA_MODELS = frozenset({"openai/gpt-oss-20b", "openai/gpt-oss-120b"})
OPENAI_BASE_URL = "https://api.openai.com/v1"
OPENAI_DEFAULT_MODEL = "gpt-4o-mini"


class OpenAICompatibleModel(ChatModel):
    """A chat model behind the OpenAI chat-completions protocol.

    `timeout_s` bounds each read (and the whole of one attempt's wait for an answer),
    `connect_timeout_s` the connection. `max_retries` counts retries after the first attempt.
    `trust_env` (proxy variables, netrc) defaults to True except for loopback servers.
    `sleep` is the pause between retries (tests replace it to observe the delays).
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        provider: str = "openai_compatible",
        api_key: str | SecretStr | None = None,
        timeout_s: float = 30.0,
        connect_timeout_s: float = 5.0,
        max_retries: int = 2,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 8.0,
        retry_after_max_s: float = 10.0,
        supports_json_schema: bool = False,
        supports_json_mode: bool = True,
        max_tokens_param: str = "max_tokens",
        trust_env: bool | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise InvalidInput(f"base_url must start with http:// or https://, got {base_url!r}")
        if not model:
            raise InvalidInput("model must not be empty")
        if timeout_s <= 0 or connect_timeout_s <= 0 or max_retries < 0:
            raise InvalidInput("timeouts must be positive and max_retries must not be negative")
        self.name = model
        self.provider = provider
        self.base_url = base_url.rstrip("/")
        self.supports_json_schema = supports_json_schema
        self.supports_json_mode = supports_json_mode
        self.timeout_s = timeout_s
        self._connect_timeout_s = connect_timeout_s
        self.max_retries = max_retries
        self._backoff_base_s = backoff_base_s
        self._backoff_max_s = backoff_max_s
        self._retry_after_max_s = retry_after_max_s
        self._max_tokens_param = max_tokens_param
        self._sleep = sleep
        key = api_key.get_secret_value() if isinstance(api_key, SecretStr) else api_key
        self._api_key = key or None
        try:
            self._client = httpx.Client(
                base_url=self.base_url,
                timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
                headers={"Authorization": f"Bearer {self._api_key}"} if self._api_key else None,
                trust_env=not is_loopback_url(self.base_url) if trust_env is None else trust_env,
            )
        except httpx.InvalidURL as exc:
            raise InvalidInput(f"base_url is not a valid URL: {exc}") from None

    @classmethod
    def groq(cls, api_key: str | SecretStr, model: str = GROQ_DEFAULT_MODEL, **options: Any) -> Self:
        options.setdefault("supports_json_schema", model in GROQ_JSON_SCHEMA_MODELS)
        return cls(base_url=options.pop("base_url", GROQ_BASE_URL), model=model, provider="groq",
                   api_key=api_key, **options)  # fmt: skip

    @classmethod
    def openai(cls, api_key: str | SecretStr, model: str = OPENAI_DEFAULT_MODEL, **options: Any) -> Self:
        options.setdefault("supports_json_schema", True)
        options.setdefault("max_tokens_param", "max_completion_tokens")  # "max_tokens" is refused by o-series
        return cls(base_url=options.pop("base_url", OPENAI_BASE_URL), model=model, provider="openai",
                   api_key=api_key, **options)  # fmt: skip

    @classmethod
    def local(cls, base_url: str, model: str = "local", **options: Any) -> Self:
        """Ollama, vLLM, llama.cpp server, LM Studio...: JSON mode, no key unless given."""
        return cls(base_url=base_url, model=model, provider=options.pop("provider", "local"), **options)

    # -- the seam ------------------------------------------------------------------------------

    def chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResult:
        body = chat_body(
            self.name,
            messages,
            max_tokens=max_tokens,
            temperature=temperature,
            response_format=response_format,
            max_tokens_param=self._max_tokens_param,
        )
        started = time.perf_counter()
        response, attempts = self._send("POST", "/chat/completions", body, self.max_retries)
        try:
            completion = parse_completion(response.content)
        except ValueError as exc:
            raise InvalidOutput(f"{self.describe()}: {exc}") from None
        return ChatResult(
            text=completion.text,
            model=completion.model or self.name,
            usage=completion.usage,
            finish_reason=completion.finish_reason,
            latency_ms=(time.perf_counter() - started) * 1000,
            attempts=attempts,
        )

    def probe(self, *, timeout_s: float = 5.0) -> str:
        """Is the server there and does it take our key? One attempt, a short timeout.

        Asks GET /models; a server without that route (404/405) is asked for a 1-token completion.
        Returns a one-line detail; raises a ProviderError.
        """
        response, _ = self._send("GET", "/models", None, 0, timeout_s=timeout_s, accept=frozenset({404, 405}))
        if response.status_code in (404, 405):
            body = chat_body(self.name, [Message(role="user", content="ping")], max_tokens=1, temperature=0.0,
                             response_format=None, max_tokens_param=self._max_tokens_param)  # fmt: skip
            self._send("POST", "/chat/completions", body, 0, timeout_s=timeout_s)
            return f"reachable at {self.base_url} (no /models; a 1-token completion answered)"
        try:
            ids = parse_model_list(response.content)
        except ValueError:
            return f"reachable at {self.base_url} (/models answered, but not with a model list)"
        listed = "listed" if self.name in ids else "not listed"
        return f"reachable at {self.base_url}: {len(ids)} models, {self.name!r} {listed}"

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return (f"OpenAICompatibleModel(provider={self.provider!r}, model={self.name!r}, "
                f"base_url={self.base_url!r}, api_key={key})")  # fmt: skip

    # -- HTTP with retries ---------------------------------------------------------------------

    def _send(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None,
        max_retries: int,
        *,
        timeout_s: float | None = None,
        accept: frozenset[int] = frozenset(),
    ) -> tuple[httpx.Response, int]:
        """One request, retried on 429/5xx/connection errors; returns the 2xx (or `accept`ed) answer
        and the number of attempts."""
        timeout: Any = httpx.USE_CLIENT_DEFAULT if timeout_s is None else timeout_s
        attempt = 0
        while True:
            attempt += 1
            failure: ProviderError
            delay: float | None
            try:
                response = self._client.request(method, path, json=body, timeout=timeout)
            except httpx.TimeoutException as exc:
                connecting = isinstance(exc, httpx.ConnectTimeout)
                what = "no connection" if connecting else "no answer"
                limit = timeout_s or (self._connect_timeout_s if connecting else self.timeout_s)
                raise ProviderTimeout(f"{self.describe()}: {what} within {limit:g}s ({type(exc).__name__})") from exc
            except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
                failure = ProviderUnavailable(
                    f"{self.describe()}: cannot reach {self.base_url} after {attempt} attempt(s): {self._redact(exc)}"
                )
                failure.__cause__ = exc
                delay = self._backoff(attempt)
            except httpx.HTTPError as exc:  # proxy, protocol or decoding trouble: retrying will not help
                raise ProviderUnavailable(f"{self.describe()}: {type(exc).__name__}: {self._redact(exc)}") from exc
            else:
                if response.is_success or response.status_code in accept:
                    return response, attempt
                failure, delay = self._failure(response, attempt)
            if delay is None or attempt > max_retries:
                raise failure
            log.warning("%s: %s; retrying in %.2fs", self.describe(), failure, delay)
            self._sleep(delay)

    def _failure(self, response: httpx.Response, attempt: int) -> tuple[ProviderError, float | None]:
        """The error a non-2xx answer stands for, and how long to wait before retrying (None: don't)."""
        status = response.status_code
        detail = error_detail(response.content, redact=self._api_key)
        where = f"{self.describe()}: HTTP {status}"
        failure: ProviderError
        if status in (401, 403):
            # The provider's text may quote part of the key; say nothing more than the status.
            failure = ProviderAuthError(f"{where}: authentication refused; check the API key")
            delay = None
        elif status == 429:
            retry_after = _retry_after(response)
            failure = RateLimited(f"{where} after {attempt} attempt(s): rate limited: {detail}", retry_after)
            if retry_after is not None and retry_after > self._retry_after_max_s:
                delay = None  # waiting less than the provider asked would only earn another 429
            else:
                delay = self._backoff(attempt) if retry_after is None else retry_after
        elif status >= 500:
            failure = ProviderUnavailable(f"{where} after {attempt} attempt(s): {detail}")
            delay = self._backoff(attempt)
        else:
            failure = ProviderError(f"{where}: request refused: {detail}")
            delay = None
        return failure, delay

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter: base * 2^(n-1), capped, times a random 0.5–1.0."""
        ceiling = min(self._backoff_max_s, self._backoff_base_s * 2.0 ** (attempt - 1))
        return ceiling * (0.5 + random.random() / 2)

    def _redact(self, exc: Exception) -> str:
        text = str(exc) or type(exc).__name__
        return text.replace(self._api_key, "***") if self._api_key else text


def _retry_after(response: httpx.Response) -> float | None:
    """Retry-After in seconds (the delta form; the HTTP-date form is rare from these APIs)."""
    try:
        return max(0.0, float(response.headers["retry-after"]))
    except (KeyError, ValueError):
        return None


def is_loopback_url(url: str) -> bool:
    """Does `url` point at this machine (127.0.0.0/8, ::1, localhost)?"""
    host = httpx.URL(url).host
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
