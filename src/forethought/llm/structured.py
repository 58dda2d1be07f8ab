"""Structured answers: a validated pydantic model out of any ChatModel, with one repair retry.

The request mode follows the model's capabilities (never its type):
- `json_schema`: response_format carries the schema (the provider constrains the output);
- `json_object`: response_format asks for JSON, the schema goes in the system prompt;
- `prompt`: the schema goes in the system prompt only.
The answer's JSON object is extracted robustly (code fences and stray prose are tolerated) and
validated. Invalid JSON, a schema failure or a truncated answer (finish_reason "length") earns ONE
repair call that shows the model its previous output and what was wrong; if that fails too,
`InvalidOutput` is raised with a short reason. Provider errors propagate unchanged: callers
degrade to their heuristic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from forethought.llm.base import ChatModel, ChatResult, InvalidOutput, Message, Usage

__all__ = ["Structured", "StructuredMode", "choose_mode", "complete_structured", "extract_json_object"]

T = TypeVar("T", bound=BaseModel)
StructuredMode = Literal["json_schema", "json_object", "prompt"]

_ECHO_LIMIT = 4000  # characters of a bad answer shown back to the model in the repair call
_REASON_LIMIT = 300
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Structured(Generic[T]):
    """A validated answer and what it cost."""

    value: T
    usage: Usage  # summed over every call, the repair included
    attempts: int  # model calls: 1, or 2 when the repair was needed
    raw: tuple[str, ...]  # the text of each call, in order
    mode_used: StructuredMode
    model: str
    latency_ms: float  # summed over the calls


class _Unusable(Exception):
    """Why one answer could not be used (internal; becomes a repair request or InvalidOutput)."""

    def __init__(self, reason: str, *, truncated: bool = False) -> None:
        super().__init__(reason)
        self.truncated = truncated


def choose_mode(model: ChatModel) -> StructuredMode:
    if model.supports_json_schema:
        return "json_schema"
    if model.supports_json_mode:
        return "json_object"
    return "prompt"


def complete_structured(
    model: ChatModel,
    messages: Sequence[Message],
    schema: type[T],
    *,
    name: str | None = None,
    max_tokens: int = 1024,
    temperature: float = 0.0,
    wire_schema: dict[str, Any] | None = None,
) -> Structured[T]:
    """Ask `model` for an answer that validates as `schema`; raise InvalidOutput if it never does.

    `name` labels the schema for the provider and in errors (default: the class name). A
    truncated first answer is retried with twice the `max_tokens`. `wire_schema`, when given, is
    the (stricter) JSON Schema sent to the model — e.g. with enums a grammar can enforce — while
    the answer is read with `schema`, so a caller can keep the valid parts of a partly wrong one.
    """
    mode = choose_mode(model)
    label = _schema_label(name or schema.__name__)
    json_schema = wire_schema if wire_schema is not None else schema.model_json_schema()
    prompt = _with_instruction(messages, _instruction(mode, label, json_schema))
    response_format = _response_format(mode, label, json_schema)

    call_messages, budget = prompt, max_tokens
    raw: list[str] = []
    usage, latency_ms = Usage(), 0.0
    for attempt in (1, 2):
        result = model.chat(call_messages, max_tokens=budget, temperature=temperature, response_format=response_format)
        raw.append(result.text)
        usage += result.usage
        latency_ms += result.latency_ms
        try:
            value = _read(result, schema)
        except _Unusable as problem:
            if attempt == 2:
                raise InvalidOutput(
                    f"{model.describe()}: {label}: no valid answer after a repair retry ({problem})"
                ) from None
            call_messages = [
                *prompt,
                Message(role="assistant", content=_clip(result.text, _ECHO_LIMIT)),
                Message(role="user", content=_repair_request(problem, mode)),
            ]
            budget = max_tokens * 2 if problem.truncated else max_tokens
            continue
        return Structured(
            value=value,
            usage=usage,
            attempts=attempt,
            raw=tuple(raw),
            mode_used=mode,
            model=result.model,
            latency_ms=latency_ms,
        )
    raise AssertionError("unreachable")  # pragma: no cover


def extract_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in `text`, tolerating code fences and prose around it.

    Raises ValueError when there is none.
    """
    candidates = [text.strip()]
    candidates += [block.strip() for block in _FENCE.findall(text)]
    starts = [i for i, ch in enumerate(text) if ch == "{" and (i == 0 or text[i - 1] == "\n")]
    first = text.find("{")
    candidates += [text[i:] for i in ([first] if first >= 0 else []) + starts]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        if not candidate.startswith("{"):
            continue
        try:
            value, _ = decoder.raw_decode(candidate)
        except (ValueError, RecursionError):  # nested too deep to parse: not an answer
            continue
        if isinstance(value, dict):
            return value
    if first < 0:
        raise ValueError("the answer contains no JSON object")
    raise ValueError("the answer's JSON object does not parse")


# -- helpers ----------------------------------------------------------------------------------


def _read(result: ChatResult, schema: type[T]) -> T:
    if result.finish_reason == "length":
        raise _Unusable("the answer was cut off at the token limit", truncated=True)
    try:
        data = extract_json_object(result.text)
    except ValueError as exc:
        raise _Unusable(str(exc)) from None
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise _Unusable(_summarize(exc)) from None


def _summarize(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors()[:3]:
        where = ".".join(str(p) for p in error["loc"]) or "(root)"
        parts.append(f"{where}: {error['msg']}")
    more = exc.error_count() - len(parts)
    text = "schema check failed: " + "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")
    return _clip(text, _REASON_LIMIT)


def _instruction(mode: StructuredMode, label: str, json_schema: dict[str, Any]) -> str:
    if mode == "json_schema":
        return f'Answer with a single JSON object that conforms to the JSON Schema "{label}".'
    schema_text = json.dumps(json_schema, separators=(",", ":"), ensure_ascii=False)
    return (
        "Answer with a single JSON object and nothing else: no prose, no code fences. "
        f"It must validate against this JSON Schema:\n{schema_text}"
    )


def _response_format(mode: StructuredMode, label: str, json_schema: dict[str, Any]) -> dict[str, Any] | None:
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": label, "schema": json_schema}}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def _with_instruction(messages: Sequence[Message], instruction: str) -> list[Message]:
    """Append the instruction to the first system message, or open with one.

    Some chat templates (llama.cpp's among them) reject a system message that is not first, so
    the instruction is merged rather than added as a second system message.
    """
    out = list(messages)
    if out and out[0].role == "system":
        out[0] = Message(role="system", content=f"{out[0].content}\n\n{instruction}")
    else:
        out.insert(0, Message(role="system", content=instruction))
    return out


def _repair_request(problem: _Unusable, mode: StructuredMode) -> str:
    if problem.truncated:
        what = "Your previous answer was cut off before it ended."
        ask = "Answer again with a complete JSON object; keep every text field short."
    else:
        what = f"Your previous answer could not be used: {problem}."
        ask = "Answer again with only the corrected JSON object"
        ask += "." if mode == "json_schema" else ", valid against the JSON Schema given above."
    return f"{what} {ask} No prose, no code fences."


def _schema_label(name: str) -> str:
    # OpenAI accepts ^[a-zA-Z0-9_-]{1,64}$ for json_schema.name.
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64] or "answer"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
