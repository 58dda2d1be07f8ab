"""Agent logs and message lists: Claude Code and Codex CLI JSON Lines, JSON message lists.

- **Claude Code** (`~/.claude/projects/*/<session>.jsonl`): `{"type": "user"|"assistant",
  "timestamp", "message": {"role", "content"}}`; a `user` line whose content is `tool_result`
  parts is tool output (kept as a tool turn), `thinking` and `tool_use` parts are not what anyone
  said, `isMeta` lines (`/clear`, caveats) and `summary` lines are not turns.
- **Codex CLI rollouts** (`~/.codex/sessions/**/rollout-*.jsonl`): `{"timestamp", "type",
  "payload"}`; turns are `response_item` payloads of type `message` with `input_text` /
  `output_text` parts; the injected `<environment_context>` / `<user_instructions>` user messages
  are not the person; `event_msg` lines echo messages already in the items (not counted twice);
  `function_call_output` payloads are tool output.
- **Message lists**: `[{"role", "content" | "text", "timestamp"?}]` or `{"messages": [...]}`.
"""

from __future__ import annotations

from typing import Any

from forethought.domain import Role
from forethought.errors import InvalidInput
from forethought.pipeline.transcripts.common import Parsed, content_text, role_named, timestamp

__all__ = ["from_objects", "is_codex"]

_INJECTED = ("<environment_context>", "<user_instructions>", "<permissions instructions>")
_MAX_TOOL_OUTPUT = 4_000  # tool output is context, not conversation: its head is enough


def is_codex(items: list[Any]) -> bool:
    return any(isinstance(i, dict) and i.get("type") in ("session_meta", "response_item") for i in items[:50])


def from_objects(items: list[Any]) -> list[Parsed]:
    if is_codex(items):
        return _codex(items)
    turns: list[Parsed] = []
    for item in items:
        if not isinstance(item, dict):
            raise InvalidInput("transcript: every message must be an object")
        turn = _claude_or_plain(item)
        if turn is not None:
            turns.append(turn)
    return turns


def _claude_or_plain(item: dict[str, Any]) -> Parsed | None:
    if item.get("isMeta") or item.get("type") in ("summary", "system", "file-history-snapshot"):
        return None
    nested = item.get("message")
    message: dict[str, Any] = nested if isinstance(nested, dict) else item
    content = message.get("content", message.get("text"))
    at = timestamp(item.get("timestamp", item.get("created_at", item.get("time"))))
    role_name = str(message.get("role") or item.get("type") or item.get("speaker") or "user")
    speaker = item.get("speaker") if isinstance(item.get("speaker"), str) else None
    if isinstance(content, list) and content and all(_is_tool_result(p) for p in content):
        output = "\n".join(content_text(p.get("content")) for p in content if isinstance(p, dict))
        return Parsed(Role.TOOL, output[:_MAX_TOOL_OUTPUT], None, at) if output.strip() else None
    text = content_text(content)
    if not text.strip():
        return None
    return Parsed(role_named(role_name), text, speaker, at)


def _is_tool_result(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") == "tool_result"


def _codex(items: list[Any]) -> list[Parsed]:
    turns: list[Parsed] = []
    for item in items:
        if not isinstance(item, dict) or item.get("type") != "response_item":
            continue  # session_meta, turn_context, event_msg echoes, compaction notes
        payload = item.get("payload")
        if not isinstance(payload, dict):
            continue
        at = timestamp(item.get("timestamp"))
        kind = payload.get("type")
        if kind == "message":
            text = content_text(payload.get("content"))
            role = role_named(str(payload.get("role", "user")))
            if not text.strip() or role is Role.SYSTEM or text.lstrip().startswith(_INJECTED):
                continue
            turns.append(Parsed(role, text, None, at))
        elif kind == "function_call_output":
            output = payload.get("output")
            text = content_text(output.get("content") if isinstance(output, dict) else output)
            if text.strip():
                turns.append(Parsed(Role.TOOL, text[:_MAX_TOOL_OUTPUT], None, at))
    return turns
