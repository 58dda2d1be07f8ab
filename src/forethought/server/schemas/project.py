"""The project app's routes: rulebook and its changes, documents, the stale queue, eval, compare."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from forethought.projects.compare import MAX_FILE_PATHS, MAX_PATH_CHARS, MAX_REPEAT, MAX_TASK_CHARS
from forethought.projects.documents import MAX_FILE_CHARS, MAX_FILES, Filed
from forethought.projects.documents import MAX_PATH_CHARS as MAX_DOC_PATH_CHARS
from forethought.projects.evaluation import MAX_TASKS, Task
from forethought.projects.rulebook import Change
from forethought.projects.stale import StaleRule
from forethought.server.schemas.admin import RejectionOut
from forethought.server.schemas.common import RecordOut
from forethought.server.schemas.records import MAX_REASON

__all__ = [
    "ChangeOut",
    "CompareIn",
    "ConfirmIn",
    "ConfirmedOut",
    "DocumentsIn",
    "DocumentsOut",
    "EvalIn",
    "RetireIn",
    "RulebookOut",
    "StaleOut",
]

RulebookFormat = Literal["md", "agents", "claude", "cursor"]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulebookOut(BaseModel):
    format: RulebookFormat
    as_of: datetime | None = Field(description="The snapshot's date; null: the rules in force now.")
    text: str = Field(description="Markdown (md), or the content of an AGENTS.md, CLAUDE.md or .cursorrules file.")
    rules: list[RecordOut]
    truncated: bool = Field(description="More rules are in force than one rulebook holds (1,000).")


class ChangeOut(BaseModel):
    what: Literal["added", "superseded", "retracted"]
    at: datetime
    record: RecordOut
    replaced_by: RecordOut | None = Field(description="For a supersession: the record that replaced it.")

    @classmethod
    def of(cls, change: Change) -> ChangeOut:
        replaced = RecordOut.of(change.replaced_by) if change.replaced_by is not None else None
        return cls(what=change.what, at=change.at, record=RecordOut.of(change.record), replaced_by=replaced)


class FileIn(_In):
    path: str = Field(min_length=1, max_length=MAX_DOC_PATH_CHARS, description="Decides how the text is read.")
    text: str = Field(max_length=MAX_FILE_CHARS)


class DocumentsIn(_In):
    files: list[FileIn] = Field(min_length=1, max_length=MAX_FILES)


class FiledDocumentOut(BaseModel):
    ref: str
    title: str
    outcome: Literal["filed", "history", "known", "skipped"]
    reason: str | None
    session_id: str | None


class RetractionOut(BaseModel):
    record: RecordOut
    by: str = Field(description="The document that withdrew it.")
    reason: str


class DocumentsOut(BaseModel):
    """Nothing is approved here: what the documents propose waits in the inbox."""

    counts: dict[str, int] = Field(description="Documents filed, as history, already imported (known), skipped.")
    rule_files: int
    adrs: int
    documents: list[FiledDocumentOut]
    pending: list[RecordOut] = Field(description="Candidates now in the inbox.")
    history: list[RecordOut] = Field(description="Records written superseded or retracted (an ADR's past).")
    rejected: list[RejectionOut]
    retractions: list[RetractionOut] = Field(description="Active records a document withdrew: a person confirms.")
    skipped: list[dict[str, str]] = Field(description="Files no document came from (path, why).")

    @classmethod
    def of(cls, filed: Filed) -> DocumentsOut:
        result = filed.result
        return cls(
            counts={o: result.count(o) for o in ("filed", "history", "known", "skipped")},
            rule_files=filed.rule_files,
            adrs=filed.adrs,
            documents=[FiledDocumentOut(ref=d.ref, title=d.title, outcome=d.outcome, reason=d.reason,
                                        session_id=d.session_id) for d in result.documents],
            pending=[RecordOut.of(r) for r in result.records("pending")],
            history=[RecordOut.of(r) for d in result.documents for r in d.history],
            rejected=[RejectionOut.of(r) for r in result.rejected()],
            retractions=[RetractionOut(record=RecordOut.of(r.record), by=r.by_ref, reason=r.reason)
                         for r in result.retractions],
            skipped=[{"path": p, "why": why} for p, why in filed.skipped],
        )  # fmt: skip


class StaleOut(BaseModel):
    record: RecordOut
    due: datetime = Field(description="Its review date.")
    reasons: list[str]

    @classmethod
    def of(cls, stale: StaleRule) -> StaleOut:
        return cls(record=RecordOut.of(stale.record), due=stale.due, reasons=stale.reasons)


class ConfirmIn(_In):
    note: str | None = Field(default=None, max_length=MAX_REASON, description="Why it still stands (audit trail).")


class ConfirmedOut(BaseModel):
    record: RecordOut
    confirmed_at: datetime


class RetireIn(_In):
    why: str = Field(min_length=1, max_length=MAX_REASON, description="Why it no longer holds (audit trail).")


class EvalIn(_In):
    """The task file of docs/project.md: `{"tasks": [{"id", "task", "paths"?, "must", "may"?, "must_not"?}]}`."""

    tasks: list[Task] = Field(min_length=1, max_length=MAX_TASKS)
    limit: int = Field(default=5, ge=1, le=50, description="Rules per brief.")

    @field_validator("tasks")
    @classmethod
    def _distinct(cls, tasks: list[Task]) -> list[Task]:
        if len({t.id for t in tasks}) != len(tasks):
            raise ValueError("every task needs its own id")
        return tasks


class CompareIn(_In):
    task: str = Field(min_length=1, max_length=MAX_TASK_CHARS)
    repeat: int = Field(default=3, ge=1, le=MAX_REPEAT)
    file_paths: list[Annotated[str, Field(max_length=MAX_PATH_CHARS)]] = Field(
        default_factory=list, max_length=MAX_FILE_PATHS
    )


JsonOut = dict[str, Any]
