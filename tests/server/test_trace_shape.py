"""The JSON of a trace over HTTP: every typed part, field by field, as the API has always shown it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from forethought import Forethought, SpaceKey
from tests.conftest import scope_of
from tests.pipeline.trace_rows import FILTERED_ID, TRACE_ID, blocked_turn_row
from tests.server.conftest import Api

KEY = SpaceKey(workspace="acme", subject_type="project", subject_id="tillpoint")
USED = {"id", "handle", "reason"}
REMEMBERED = {
    "mode",
    "proposed",
    "merged_in_session",
    "auto_approved",
    "pending_review",
    "added_evidence_to",
    "rejected",
}


def _seed(memory: Forethought) -> dict[str, Any]:
    space_id = memory.space(scope_of(memory, KEY)).id
    row = blocked_turn_row(space_id)
    when = datetime.fromisoformat(row["created_at"])
    memory.store.traces.add(space_id, TRACE_ID, kind="turn", session_id=row["session_id"], created_at=when, data=row)
    return row


def test_a_stored_trace_is_shown_with_every_part_in_its_shape(api: Api, memory: Forethought) -> None:
    row = _seed(memory)
    shown = api.get(api.url("project", "tillpoint", f"/traces/{TRACE_ID}"))
    assert shown.status_code == 200, shown.text
    expected = {k: v for k, v in row.items() if k != "space_id"}
    expected["recalled"] = [row["recalled"][0], {"id": FILTERED_ID, "handle": "xwz4k5xc", "score": None}]
    assert shown.json() == expected
    listed = api.get(api.url("project", "tillpoint", "/traces")).json()["items"]
    assert listed == [expected]


def test_a_turns_trace_parts_have_their_typed_fields(api: Api) -> None:
    base = api.url("project", "tillpoint")
    api.post(f"{base}/records", json={"text": "Use Postgres for the ledger service.", "kind": "decision"})
    turn = api.post(f"{base}/turns", json={"message": "Remember that the ledger runs nightly. Which database?"})
    body = turn.json()
    assert body["used"] and all(set(u) == USED for u in body["used"])
    trace = api.get(f"{base}/traces/{body['trace_id']}").json()
    assert trace["used"] == body["used"]
    assert all(set(r) == {"id", "handle", "score"} for r in trace["recalled"])
    assert all(set(f) == USED for f in trace["filtered"])
    assert all(set(s) == {"name", "ms", "status", "note"} for s in trace["stages"])
    assert set(trace["memory"]) == REMEMBERED and trace["memory"]["mode"] == "heuristic"
    assert all(set(r) == {"kind", "rule", "reason"} for r in trace["memory"]["rejected"])
    assert set(trace["usage"]) == {"prompt_tokens", "completion_tokens"}
    assert trace["violations"] == []  # a heuristic reply restates memory: there is nothing to check
