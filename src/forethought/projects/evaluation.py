"""Evaluating a project's briefs on a team's own tasks: precision, recall, forbidden-rule rate.

The task file is JSON: `{"tasks": [{"id", "task", "paths"?, "must", "may"?, "must_not"?}]}` (or
the list alone). Each rule reference is a record's handle or id, or `{"text": "..."}` matched
against the current rules' statements (case and spacing ignored; the text inside the statement or
the statement inside the text). Per task and overall (micro-averaged):

    precision = |briefed ∩ (must ∪ may)| / |briefed|     recall = |briefed ∩ must| / |must|
    forbidden-task rate = share of tasks whose brief holds any must-not rule

A task whose brief holds nothing has no precision (it is not counted in the overall one); a task
with no must rule has no recall. A reference that names no current rule is reported, not guessed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from forethought.domain import Record
from forethought.domain.limits import clean_text
from forethought.errors import InvalidInput
from forethought.facade import Forethought, Scope
from forethought.projects.rulebook import build_rulebook
from forethought.text.jsontext import load_json

__all__ = ["MAX_TASKS", "EvalReport", "Task", "TaskResult", "evaluate", "read_tasks"]

MAX_TASKS = 1000


class _Text(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=3, max_length=2000)


Ref = str | _Text


class Task(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=200)
    task: str = Field(min_length=1, max_length=4000)
    paths: list[str] = Field(default_factory=list, max_length=100)
    must: list[Ref] = Field(default_factory=list, max_length=100)
    may: list[Ref] = Field(default_factory=list, max_length=100)
    must_not: list[Ref] = Field(default_factory=list, max_length=100)

    @field_validator("task")
    @classmethod
    def _clean(cls, value: str) -> str:
        return clean_text(value, field="task", limit=4000)


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tasks: list[Task] = Field(max_length=MAX_TASKS)


def read_tasks(text: str) -> list[Task]:
    """The tasks of a task file; InvalidInput naming the first problem."""
    try:
        data = load_json(text, what="tasks")
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"tasks: not JSON ({exc.msg} at line {exc.lineno})") from None
    try:
        tasks = _File.model_validate({"tasks": data} if isinstance(data, list) else data).tasks
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidInput(f"tasks: {where}: {first['msg']}") from None
    if len({t.id for t in tasks}) != len(tasks):
        raise InvalidInput("tasks: every task needs its own id")
    return tasks


@dataclass(frozen=True)
class TaskResult:
    id: str
    briefed: list[str]  # handles
    right: int
    must: int
    found: int
    forbidden: list[str]

    @property
    def precision(self) -> float | None:
        return self.right / len(self.briefed) if self.briefed else None

    @property
    def recall(self) -> float | None:
        return self.found / self.must if self.must else None


@dataclass(frozen=True)
class EvalReport:
    tasks: list[TaskResult]
    unknown: list[tuple[str, str]] = field(default_factory=list)  # (task id, reference naming no rule)

    @property
    def precision(self) -> float | None:
        briefed = sum(len(t.briefed) for t in self.tasks)
        return sum(t.right for t in self.tasks) / briefed if briefed else None

    @property
    def recall(self) -> float | None:
        must = sum(t.must for t in self.tasks)
        return sum(t.found for t in self.tasks) / must if must else None

    @property
    def forbidden_rate(self) -> float | None:
        return sum(1 for t in self.tasks if t.forbidden) / len(self.tasks) if self.tasks else None

    def as_json(self) -> dict[str, Any]:
        return {
            "precision": _round(self.precision),
            "recall": _round(self.recall),
            "forbidden_task_rate": _round(self.forbidden_rate),
            "tasks": [
                {
                    "id": t.id,
                    "briefed": t.briefed,
                    "precision": _round(t.precision),
                    "recall": _round(t.recall),
                    "forbidden": t.forbidden,
                }
                for t in self.tasks
            ],
            "unknown_references": [{"task": t, "reference": r} for t, r in self.unknown],
        }

    def text(self) -> str:
        lines = [
            f"{len(self.tasks)} tasks: precision {_show(self.precision)}, recall {_show(self.recall)}, "
            f"forbidden-task rate {_show(self.forbidden_rate)}"
        ]
        for t in self.tasks:
            bad = f"  FORBIDDEN {', '.join(t.forbidden)}" if t.forbidden else ""
            lines.append(f"  {t.id}: P {_show(t.precision)} R {_show(t.recall)} briefed [{', '.join(t.briefed)}]{bad}")
        lines += [f"  (task {t}: {r!r} names no current rule)" for t, r in self.unknown]
        return "\n".join(lines)


def evaluate(memory: Forethought, scope: Scope, tasks: list[Task], *, limit: int = 5) -> EvalReport:
    """Brief every task (as an agent would: at most `limit` items) and score it (see the module)."""
    rules = build_rulebook(memory, scope).rules
    results: list[TaskResult] = []
    unknown: list[tuple[str, str]] = []
    for task in tasks:

        def resolve(refs: list[Ref], task_id: str = task.id) -> set[str]:
            found: set[str] = set()
            for ref in refs:
                ids = _resolve(ref, rules)
                if not ids:
                    unknown.append((task_id, ref if isinstance(ref, str) else ref.text))
                found |= ids
            return found

        must, may, must_not = resolve(task.must), resolve(task.may), resolve(task.must_not)
        brief = memory.brief(scope, task.task, limit=limit, file_paths=task.paths, max_excerpts=0)
        briefed = [item.record for item in brief.used]
        ids = {r.id for r in briefed}
        results.append(
            TaskResult(
                id=task.id,
                briefed=[r.handle for r in briefed],
                right=len(ids & (must | may)),
                must=len(must),
                found=len(ids & must),
                forbidden=[r.handle for r in briefed if r.id in must_not],
            )
        )
    return EvalReport(results, unknown)


def _resolve(ref: Ref, rules: list[Record]) -> set[str]:
    if isinstance(ref, str):
        return {r.id for r in rules if ref in (r.id, r.handle, r.external_id)}
    wanted = _norm(ref.text)
    return {r.id for r in rules if wanted in _norm(r.statement) or _norm(r.statement) in wanted}


def _norm(text: str) -> str:
    return " ".join(text.casefold().split()).strip(" .")


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _show(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"
