"""Traces: what one governed turn did, stage by stage, kept and retrievable by id.

A trace holds ids, handles, reasons, timings and counts — never memory text — so that forgetting
a record leaves nothing of its content behind in the traces that once used it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from forethought.llm.base import Usage

__all__ = ["Stage", "StageStatus", "Trace"]

StageStatus = Literal["ok", "degraded", "failed", "skipped"]


class Stage(BaseModel):
    name: str
    ms: float = 0.0
    status: StageStatus = "ok"
    note: str = ""


class Trace(BaseModel):
    id: str
    kind: str = "turn"
    space_id: str
    session_id: str | None = None
    app: str
    created_at: datetime
    mode: str = "heuristic"  # "heuristic" | "llm:<model>": what generated the reply
    heuristic: bool = True  # no language model took part: every output is rule-based
    stages: list[Stage] = Field(default_factory=list)
    recalled: list[dict[str, Any]] = Field(default_factory=list)  # {id, handle, score, why}
    used: list[dict[str, Any]] = Field(default_factory=list)  # {id, handle, reason}
    filtered: list[dict[str, Any]] = Field(default_factory=list)  # {id, handle, reason}
    violations: list[dict[str, Any]] = Field(default_factory=list)  # {handle, severity, source, rule}
    regenerated: bool = False
    blocked: bool = False
    memory: dict[str, Any] = Field(default_factory=dict)  # what the turn proposed to remember
    usage: Usage = Field(default_factory=Usage)
    degraded: list[str] = Field(default_factory=list)

    @contextmanager
    def stage(self, name: str) -> Iterator[Stage]:
        """Time a stage; the body may set its status and note. An exception marks it failed and
        propagates (the orchestrator decides what a failure degrades to)."""
        record = Stage(name=name)
        start = time.perf_counter()
        try:
            yield record
        except BaseException as exc:
            record.status = "failed"
            record.note = record.note or f"{type(exc).__name__}: {str(exc)[:200]}"
            raise
        finally:
            record.ms = round((time.perf_counter() - start) * 1000, 3)
            self.stages.append(record)
            if record.status in ("degraded", "failed") and record.note:
                self.degraded.append(f"{name}: {record.note}")

    def stage_names(self) -> list[str]:
        return [s.name for s in self.stages]
