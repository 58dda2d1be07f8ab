"""The one place the MCP front end turns an exception into what a client sees.

A tool that fails returns a result with `isError: true` and one line of text — never a protocol
error and never a stack trace, so the agent can read the message and correct its call:

    invalid input: ...     the arguments (pydantic) or the façade's validators refused the input
    not found: ...         NotFound
    conflict: ...          Conflict
    backend error: ...     BackendError (store, embedder or model provider failed)
    internal error: ...    anything else; the traceback goes to the server's log (stderr), not the client
"""

from __future__ import annotations

import logging

from mcp_types import CallToolResult, TextContent
from pydantic import ValidationError

from forethought.errors import BackendError, Conflict, ForethoughtError, InvalidInput, NotFound
from forethought.memory import UnknownApp

__all__ = ["error_message", "tool_error"]

log = logging.getLogger("forethought.mcp")

_LABELS: list[tuple[type[ForethoughtError], str]] = [
    (UnknownApp, "invalid input"),  # the `app` argument names no app: the call's input is wrong
    (InvalidInput, "invalid input"),
    (NotFound, "not found"),
    (Conflict, "conflict"),
    (BackendError, "backend error"),
]
_MAX_MESSAGE = 500


def error_message(exc: BaseException, *, tool: str) -> str:
    """One line for the client; logs what the client must not see."""
    if isinstance(exc, ValidationError):
        return f"invalid input: {_validation_line(exc)}"
    if isinstance(exc, ForethoughtError):
        label = next((text for kind, text in _LABELS if isinstance(exc, kind)), "error")
        log.info("tool %s refused: %s", tool, type(exc).__name__)
        return f"{label}: {_one_line(str(exc)) or type(exc).__name__}"
    log.error("tool %s failed unexpectedly", tool, exc_info=exc)
    return f"internal error: {tool} could not complete (the server's log has the details)"


def tool_error(exc: BaseException, *, tool: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=error_message(exc, tool=tool))], is_error=True)


def _validation_line(exc: ValidationError) -> str:
    error = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in error.get("loc", ())) or "arguments"
    message = str(error.get("msg", "invalid value")).removeprefix("Value error, ")
    extra = f" ({exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return _one_line(f"{where}: {message}{extra}")


def _one_line(text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= _MAX_MESSAGE else first[: _MAX_MESSAGE - 1] + "…"
