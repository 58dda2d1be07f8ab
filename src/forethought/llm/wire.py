"""The OpenAI chat-completions wire format: request bodies out, typed answers in.

Pure functions and pydantic models, no I/O, so the HTTP client (`openai_compat.py`) and the fake
server (`fake_server.py`) speak exactly the same dialect.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from forethought.llm.base import Message, Usage

__all__ = [
    "Completion",
    "chat_body",
    "completion_payload",
    "error_detail",
    "model_list_payload",
    "parse_completion",
    "parse_model_list",
]

_DETAIL_LIMIT = 200


class _Lenient(BaseModel):
    # Providers add fields freely (logprobs, timings, x_groq...); only what we read is checked.
    model_config = ConfigDict(extra="ignore")


class _WireMessage(_Lenient):
    content: str | None = None
    refusal: str | None = None


class _WireChoice(_Lenient):
    message: _WireMessage
    finish_reason: str | None = None


class _WireUsage(_Lenient):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class _WireCompletion(_Lenient):
    model: str | None = None
    choices: list[_WireChoice] = Field(min_length=1)
    usage: _WireUsage | None = None


class _WireModel(_Lenient):
    id: str


class _WireModelList(_Lenient):
    data: list[_WireModel]


class Completion(BaseModel):
    """What one 2xx chat-completions answer said."""

    model_config = ConfigDict(frozen=True)

    text: str
    model: str | None
    finish_reason: str | None
    usage: Usage


def chat_body(
    model: str,
    messages: Sequence[Message],
    *,
    max_tokens: int,
    temperature: float,
    response_format: dict[str, Any] | None,
    max_tokens_param: str = "max_tokens",
) -> dict[str, Any]:
    """The JSON body of POST /chat/completions.

    `max_tokens_param` is "max_tokens" for most servers; OpenAI's newer models only accept
    "max_completion_tokens".
    """
    body: dict[str, Any] = {
        "model": model,
        "messages": [{"role": m.role, "content": m.content} for m in messages],
        "temperature": temperature,
        max_tokens_param: max_tokens,
    }
    if response_format is not None:
        body["response_format"] = response_format
    return body


def parse_completion(raw: bytes) -> Completion:
    """Read a chat-completions answer; ValueError (with a short reason) when it is malformed."""
    try:
        wire = _WireCompletion.model_validate_json(raw)
    except ValidationError as exc:
        raise ValueError(_short_validation_error(exc)) from None
    choice = wire.choices[0]
    if choice.message.content is None:
        if choice.message.refusal:
            raise ValueError(f"the model refused: {_clip(choice.message.refusal)}")
        raise ValueError("choices[0].message.content is missing")
    usage = wire.usage or _WireUsage()
    return Completion(
        text=choice.message.content,
        model=wire.model,
        finish_reason=choice.finish_reason,
        usage=Usage(prompt_tokens=usage.prompt_tokens or 0, completion_tokens=usage.completion_tokens or 0),
    )


def parse_model_list(raw: bytes) -> list[str]:
    """The model ids of a GET /models answer; ValueError when it is malformed."""
    try:
        return [m.id for m in _WireModelList.model_validate_json(raw).data]
    except ValidationError as exc:
        raise ValueError(_short_validation_error(exc)) from None


def completion_payload(text: str, *, model: str, finish_reason: str = "stop", usage: Usage | None) -> dict[str, Any]:
    """A chat-completions answer as a server sends it (the fake server's side of the protocol)."""
    payload: dict[str, Any] = {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}],
    }
    if usage is not None:
        payload["usage"] = {**usage.model_dump(), "total_tokens": usage.total_tokens}
    return payload


def model_list_payload(ids: Sequence[str]) -> dict[str, Any]:
    """A GET /models answer."""
    return {"object": "list", "data": [{"id": i, "object": "model", "owned_by": "fake"} for i in ids]}


def error_detail(raw: bytes, *, redact: str | None = None) -> str:
    """A short, single-line reason from an error body ({"error": {"message": ...}} or text).

    `redact` (the API key) is blanked out wherever the provider echoed it back.
    """
    text = raw.decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # a body nested too deep for the parser is just text
        data = None
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            text = error["message"]
        elif isinstance(error, str):
            text = error
    if redact:
        text = text.replace(redact, "***")
    return _clip(text)


def _clip(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= _DETAIL_LIMIT else text[: _DETAIL_LIMIT - 1] + "…"


def _short_validation_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return _clip(f"malformed response body: {where}: {first['msg']}")
