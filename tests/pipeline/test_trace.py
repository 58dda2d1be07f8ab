"""A trace's typed parts: rows written in today's JSON shape load into them, through the façade
too, and what is written back is the same JSON."""

from __future__ import annotations

from datetime import UTC, datetime

from forethought import Forethought
from forethought.llm.base import Usage
from forethought.pipeline.trace import (
    FilteredItem,
    RecalledItem,
    RejectedItem,
    Remembered,
    Stage,
    Trace,
    UsedItem,
    ViolationItem,
)
from tests.pipeline.trace_rows import (
    FILTERED_ID,
    SESSION_ID,
    TRACE_ID,
    USED_ID,
    blocked_turn_row,
    unremembered_turn_row,
)

SPACE = "73a74a21590b6cd8eecb7daa79d93e7874ae981e52c4aef8a70491febcc219dc"


def test_a_row_in_todays_shape_loads_into_typed_parts() -> None:
    trace = Trace.from_stored(blocked_turn_row(SPACE))
    assert trace.id == TRACE_ID and trace.space_id == SPACE and trace.session_id == SESSION_ID
    assert trace.created_at == datetime(2026, 12, 1, 9, 54, 27, 800666, tzinfo=UTC)
    assert trace.mode == "llm:fake" and trace.heuristic is False
    assert trace.regenerated is True and trace.blocked is True
    assert trace.stages[-2] == Stage(
        name="memorize",
        ms=14.909,
        status="degraded",
        note="LLM extraction failed (invalid_output); heuristic extractor used",
    )
    assert len(trace.stages) == 11
    assert trace.recalled == [
        RecalledItem(id=USED_ID, handle="f3bf9kdc", score=0.299242),
        RecalledItem(id=FILTERED_ID, handle="xwz4k5xc", score=None),
    ]
    assert trace.used == [UsedItem(id=USED_ID, handle="f3bf9kdc", reason="llm: it is about this")]
    assert trace.filtered == [FilteredItem(id=FILTERED_ID, handle="xwz4k5xc", reason="llm: not about this task")]
    assert trace.violations == [
        ViolationItem(handle="f3bf9kdc", severity="error", source="pattern", rule="matches a pattern memory forbids")
    ]
    assert trace.memory == Remembered(
        mode="heuristic",
        proposed=2,
        auto_approved=["01s7fjr9"],
        rejected=[RejectedItem(kind="note", rule="evidence_not_found", reason="the evidence is not in the session")],
    )
    assert trace.usage == Usage(prompt_tokens=2062, completion_tokens=76)
    assert trace.degraded == ["memorize: LLM extraction failed (invalid_output); heuristic extractor used"]


def test_an_empty_memory_object_loads_as_nothing_remembered() -> None:
    trace = Trace.from_stored(unremembered_turn_row(SPACE, TRACE_ID))
    assert trace.memory == Remembered()
    assert trace.memory.mode is None and trace.memory.proposed == 0
    assert trace.memory.auto_approved == [] and trace.memory.pending_review == [] and trace.memory.rejected == []
    assert trace.session_id is None and [s.status for s in trace.stages] == ["skipped", "failed"]


def test_what_is_written_back_is_todays_json() -> None:
    row = blocked_turn_row(SPACE)
    written = Trace.from_stored(row).stored()
    # The one difference: a filtered record's recall entry now says it has no score.
    assert written["recalled"][1] == {"id": FILTERED_ID, "handle": "xwz4k5xc", "score": None}
    row["recalled"][1]["score"] = None
    assert written == row


def test_a_key_no_part_names_is_not_read_back() -> None:
    # A violation once kept its message, which quotes the record: reading such a row back must
    # not carry the text into anything shown or written again.
    row = blocked_turn_row(SPACE)
    row["violations"][0]["message"] = "Never store refresh tokens in localStorage."
    assert "Never store refresh tokens" not in Trace.from_stored(row).model_dump_json()


def test_stored_rows_come_back_from_the_facade_as_traces(memory: Forethought) -> None:
    key = memory.scope("project", "tillpoint")
    space_id = memory.space(key).id
    older, newer = blocked_turn_row(space_id), unremembered_turn_row(space_id, "01M8RGDVTRP9ETSF2RFCZHT3X0")
    for row in (older, newer):
        memory.store.traces.add(
            space_id,
            row["id"],
            kind="turn",
            session_id=row["session_id"],
            created_at=datetime.fromisoformat(row["created_at"]),
            data=row,
        )
    one = memory.trace(key, TRACE_ID)
    assert one == Trace.from_stored(older)
    assert one.used[0].reason == "llm: it is about this" and one.memory.auto_approved == ["01s7fjr9"]
    listed = memory.list_traces(key)
    assert [t.id for t in listed] == [newer["id"], TRACE_ID]
    assert listed == [Trace.from_stored(newer), one]
