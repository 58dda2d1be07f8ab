"""Traces: what one governed turn did, stage by stage, kept and retrievable by id.

A trace holds ids, handles, reasons, timings and counts — never memory text — so that forgetting
a record leaves nothing of its content behind in the traces that once used it. Each part is a
named model below; none has a field that could carry a record's statement.

Stores keep a trace as JSON: `Trace.stored()` is what is written and `Trace.from_stored()` reads
it back, the one place the pipeline converts between the two. Fields added since a row was
written take their defaults, and keys a row holds that the models no longer name are ignored,
so traces written by earlier versions still load.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from forethought.llm.base import Usage
from forethought.pipeline.reports import Severity, ViolationSource

__all__ = [
    "TURN",
    "FilteredItem",
    "RecalledItem",
    "RejectedItem",
    "Remembered",
    "Stage",
    "StageStatus",
    "Trace",
    "UsedItem",
    "ViolationItem",
]

StageStatus = Literal["ok", "degraded", "failed", "skipped"]
TURN = "turn"  # the kind of a governed turn's trace; other traced runs (a compare) keep their own


class _Part(BaseModel):
    # Parts are facts about a finished stage: written once, never edited.
    model_config = ConfigDict(frozen=True)


class Stage(BaseModel):
    name: str
    ms: float = 0.0
    status: StageStatus = "ok"
    note: str = ""


class RecalledItem(_Part):
    """A record recall brought to the brief. `score` is the brief's score for a record it used;
    a record the brief filtered has none."""

    id: str
    handle: str
    score: float | None = None


class _Reasoned(_Part):
    id: str
    handle: str
    reason: str  # in words that quote no memory


class UsedItem(_Reasoned):
    """A record the brief gave the reply, and why it applies."""


class FilteredItem(_Reasoned):
    """A record recalled but left out of the brief, and why."""


class ViolationItem(_Part):
    """A way the draft went against memory: the kind of conflict (`rule`), never the message,
    which quotes the record."""

    handle: str
    severity: Severity
    source: ViolationSource
    rule: str = ""


class RejectedItem(_Part):
    """A candidate the validator refused: its kind and the rule and reason that refused it."""

    kind: str
    rule: str
    reason: str


class Remembered(_Part):
    """What the turn proposed to remember and where each proposal went, by handle. All empty
    (and `mode` None) when the memorize stage did not finish."""

    mode: str | None = None  # the extractor that ran: "heuristic" | "llm:<model>"
    proposed: int = 0
    merged_in_session: int = 0
    auto_approved: list[str] = Field(default_factory=list)
    pending_review: list[str] = Field(default_factory=list)
    added_evidence_to: list[str] = Field(default_factory=list)
    rejected: list[RejectedItem] = Field(default_factory=list)


class Trace(BaseModel):
    id: str
    kind: str = TURN
    space_id: str
    session_id: str | None = None
    app: str
    created_at: datetime
    mode: str = "heuristic"  # "heuristic" | "llm:<model>": what generated the reply
    heuristic: bool = True  # no language model took part: every output is rule-based
    stages: list[Stage] = Field(default_factory=list)
    recalled: list[RecalledItem] = Field(default_factory=list)
    used: list[UsedItem] = Field(default_factory=list)
    filtered: list[FilteredItem] = Field(default_factory=list)
    violations: list[ViolationItem] = Field(default_factory=list)  # of the last check run
    regenerated: bool = False
    blocked: bool = False
    memory: Remembered = Field(default_factory=Remembered)
    usage: Usage = Field(default_factory=Usage)
    degraded: list[str] = Field(default_factory=list)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Trace:
        """The trace a store kept as JSON. Raises pydantic.ValidationError when `data` is not a
        trace (a row this code did not write)."""
        return cls.model_validate(data)

    def stored(self) -> dict[str, Any]:
        """The JSON a store keeps for this trace."""
        return self.model_dump(mode="json")

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
