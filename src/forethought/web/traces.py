"""A stored trace, read for a page: the records it used and filtered (with their text, looked up
now, since a trace keeps ids and reasons but never memory text), its checks and its stages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from forethought.domain import Record
from forethought.errors import NotFound
from forethought.facade import Forethought, Scope
from forethought.llm.base import Usage
from forethought.pipeline.trace import FilteredItem, Remembered, UsedItem, ViolationItem

__all__ = ["TraceItem", "TraceStage", "TraceView", "latest_trace_of", "read_trace"]


@dataclass(frozen=True)
class TraceItem:
    """A record a turn recalled: its handle, why it was used or filtered, and the record now
    (None once it has been forgotten)."""

    record_id: str
    handle: str
    reason: str = ""
    score: float | None = None
    record: Record | None = None


@dataclass(frozen=True)
class TraceStage:
    name: str
    ms: float
    status: str
    note: str
    share: float  # of the slowest stage, 0-100, for the bar


@dataclass(frozen=True)
class TraceView:
    id: str
    created_at: datetime
    mode: str
    heuristic: bool
    session_id: str | None
    used: list[TraceItem]
    filtered: list[TraceItem]
    violations: list[ViolationItem]
    stages: list[TraceStage]
    memory: Remembered
    usage: Usage
    degraded: list[str] = field(default_factory=list)
    regenerated: bool = False
    blocked: bool = False

    @property
    def total_ms(self) -> float:
        return round(sum(s.ms for s in self.stages), 1)


def _items(entries: Sequence[UsedItem | FilteredItem], records: dict[str, Record]) -> list[TraceItem]:
    return [TraceItem(e.id, e.handle, e.reason, record=records.get(e.id)) for e in entries]


def _records(memory: Forethought, scope: Scope, ids: list[str]) -> dict[str, Record]:
    found: dict[str, Record] = {}
    for record_id in dict.fromkeys(ids):
        try:
            found[record_id] = memory.get(scope, record_id)
        except NotFound:
            continue  # forgotten since the turn: the handle is all that is left
    return found


def read_trace(memory: Forethought, scope: Scope, trace_id: str) -> TraceView:
    """The trace `trace_id` of this space (NotFound for another space's), ready to show."""
    trace = memory.trace(scope, trace_id)
    records = _records(memory, scope, [e.id for e in (*trace.used, *trace.filtered)])
    slowest = max((s.ms for s in trace.stages), default=0.0) or 1.0
    return TraceView(
        id=trace.id,
        created_at=trace.created_at,
        mode=trace.mode,
        heuristic=trace.heuristic,
        session_id=trace.session_id,
        used=_items(trace.used, records),
        filtered=_items(trace.filtered, records),
        violations=trace.violations,
        stages=[TraceStage(s.name, s.ms, s.status, s.note, round(100 * s.ms / slowest, 1)) for s in trace.stages],
        memory=trace.memory,
        usage=trace.usage,
        degraded=trace.degraded,
        regenerated=trace.regenerated,
        blocked=trace.blocked,
    )


def latest_trace_of(memory: Forethought, scope: Scope, session_id: str) -> str | None:
    """The id of the newest trace of a session, among the space's recent traces."""
    for trace in memory.list_traces(scope, limit=100):
        if trace.session_id == session_id:
            return trace.id
    return None
