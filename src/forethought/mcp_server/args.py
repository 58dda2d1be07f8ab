"""The tools' arguments: one strict pydantic model each, whose JSON schema is the tool's input schema.

Strict: a JSON string is never coerced into a number, unknown arguments are refused, and every text
has a size limit — the façade then applies its own validators (control characters, emptiness) on
top. No argument names a space id: the space is derived from the caller's workspace, the app and
the `project` argument.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from forethought.domain.limits import MAX_NAME, MAX_QUERY, MAX_SPEAKER
from forethought.domain.times import MAX_TIME_CHARS
from forethought.pipeline.check import MAX_DRAFT_CHARS

__all__ = [
    "MAX_CONTENT",
    "MAX_TRANSCRIPT",
    "AskArgs",
    "BriefArgs",
    "CheckArgs",
    "RecallArgs",
    "RulebookArgs",
    "SubmitArgs",
    "ToolArgs",
    "input_schema",
]

MAX_CONTENT = MAX_DRAFT_CHARS  # the façade's limit for a checked draft
MAX_TRANSCRIPT = 1_000_000  # characters; the HTTP transport also caps a request body at 4 MiB
MAX_FILES = 50
MAX_PATH = 500

FilePath = Annotated[str, Field(min_length=1, max_length=MAX_PATH)]
Speaker = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_SPEAKER)]


class ToolArgs(BaseModel):
    """What every tool takes: which project (subject) and which app's memory model."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    project: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NAME,
        description=(
            "The project whose memory to use, e.g. 'tillpoint' (with another app: the subject — a student, "
            "a customer). Optional only when the server was started with a default (--space)."
        ),
    )
    app: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="The app whose memory model applies: 'project' (the default) for coding agents.",
    )


class BriefArgs(ToolArgs):
    task: str = Field(
        min_length=1, max_length=MAX_QUERY, description="The task about to be done, in a sentence or two."
    )
    files: list[FilePath] = Field(
        default_factory=list,
        max_length=MAX_FILES,
        description="Paths of the files the task will touch (they help decide which records apply).",
    )
    limit: int = Field(default=5, ge=1, le=20, description="At most this many records in the memory block.")
    max_excerpts: int = Field(
        default=3, ge=0, le=10,
        description="Unreviewed past-session passages allowed in the room the records leave (0: none).",
    )  # fmt: skip


class CheckArgs(ToolArgs):
    content: str = Field(
        min_length=1,
        max_length=MAX_CONTENT,
        description="The draft to check: code, a diff, a plan or an answer, before it is delivered.",
    )
    path: FilePath | None = Field(
        default=None, description="The file the content is for (keeps other files' rules off it)."
    )
    diff: bool | None = Field(
        default=None,
        description=(
            "True: content is a unified diff (only added lines are checked, each file with its path and "
            "line numbers); false: plain content; omitted: detected."
        ),
    )


class SubmitArgs(ToolArgs):
    transcript: str = Field(
        min_length=1,
        max_length=MAX_TRANSCRIPT,
        description=(
            "The session: 'User: ...' / 'Assistant: ...' lines, a JSON list of {role, text} turns, or JSON "
            "Lines (a Claude Code transcript works as is)."
        ),
    )
    title: str = Field(min_length=1, max_length=MAX_NAME, description="A short title for the session.")
    format: Literal["auto", "text", "json", "jsonl", "markdown", "cursor"] = Field(
        default="auto", description="How the transcript is written; 'auto' detects it."
    )
    human: Speaker | None = Field(
        default=None,
        description=(
            "In a plain-text chat between named speakers ('Maria: ...'): the person's name; every other "
            "speaker is the assistant side."
        ),
    )
    occurred_at: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_TIME_CHARS,
        description=(
            "When the session happened, for a transcript without times: an ISO 8601 time with a time zone, "
            "e.g. '2026-03-04T10:12:00Z' or '2026-03-04T11:12:00+01:00'."
        ),
    )


class AskArgs(ToolArgs):
    question: str = Field(min_length=1, max_length=MAX_QUERY, description="A question about the project.")


class RulebookArgs(ToolArgs):
    format: Literal["md", "agents", "claude", "cursor"] = Field(
        default="md",
        description=(
            "md: grouped by kind and area, with handles; agents, claude, cursor: the content of an "
            "AGENTS.md, CLAUDE.md or .cursorrules file"
        ),
    )


class RecallArgs(ToolArgs):
    query: str = Field(min_length=1, max_length=MAX_QUERY, description="What to look for.")
    k: int = Field(default=8, ge=1, le=50, description="How many records to return at most.")


def input_schema(
    model: type[ToolArgs], *, apps: list[str], default_app: str, default_project: str | None
) -> dict[str, Any]:
    """The model's JSON schema, with the installed apps as an enum, the server's defaults filled in,
    and `project` required unless the server has a default for it."""
    schema = model.model_json_schema()
    props = schema["properties"]
    props["app"] = {
        "type": "string",
        "enum": apps,
        "default": default_app,
        "description": props["app"]["description"],
    }
    project: dict[str, Any] = {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_NAME,
        "description": props["project"]["description"],
    }
    if default_project is None:
        schema["required"] = sorted({*schema.get("required", []), "project"})
    else:
        project["default"] = default_project
    props["project"] = project
    return schema
