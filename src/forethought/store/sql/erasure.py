"""Forgetting a record on both SQL backends: every version's rows, the links from other records,
their words in traces (ids and numbers stay), their audit rows (one event without text remains)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from forethought.domain import Action, AuditEvent, new_id
from forethought.domain.times import utcnow
from forethought.errors import NotFound
from forethought.store.rows import dump_json
from forethought.store.sql.audit import insert_events
from forethought.store.sql.filters import marks
from forethought.store.sql.index_sync import queue_sync

__all__ = ["cut_links", "forget_in_traces", "forget_lineage"]

_TRACE_KEYS = frozenset({"id", "record_id", "handle", "lineage_id"})  # what a trace item keeps of a forgotten record


def cut_links(conn: Any, space_id: str, ids: list[str]) -> None:
    """Remove references to erased ids from the records that point at them."""
    gone = set(ids)
    placeholders = marks(len(ids))
    rows = conn.execute(
        f"SELECT id, supersedes, superseded_by, previous_id FROM records WHERE space_id = ?"
        f" AND id NOT IN ({placeholders})"
        f" AND (superseded_by IN ({placeholders}) OR previous_id IN ({placeholders}) OR supersedes <> '[]')",
        (space_id, *ids, *ids, *ids),
    ).fetchall()
    for record_id, supersedes, superseded_by, previous_id in rows:
        kept = [i for i in json.loads(supersedes) if i not in gone]
        conn.execute(
            "UPDATE records SET supersedes = ?, superseded_by = ?, previous_id = ? WHERE id = ?",
            (
                dump_json(kept),
                None if superseded_by in gone else superseded_by,
                None if previous_id in gone else previous_id,
                record_id,
            ),
        )


def forget_in_traces(conn: Any, space_id: str, ids: list[str], *, contains: str) -> None:
    """Traces name records by id and say why each was used or filtered, in words drawn from the
    record ("names `x`; shares 'vault'"): the items about erased ids keep their ids and numbers;
    their words become "[forgotten]", so the trace still reads. `contains` is the backend's SQL
    for "`data` holds the bound text" (`instr(data, ?) > 0`, `strpos(data, ?) > 0`)."""
    gone = set(ids)

    def cut(value: Any) -> Any:
        if isinstance(value, list):
            return [cut(v) for v in value]
        if isinstance(value, dict):
            if gone & {v for v in value.values() if isinstance(v, str)}:
                return {k: v if k in _TRACE_KEYS or not isinstance(v, str) else "[forgotten]" for k, v in value.items()}
            return {k: cut(v) for k, v in value.items()}
        return value

    for start in range(0, len(ids), 50):
        chunk = ids[start : start + 50]
        found = " OR ".join(contains for _ in chunk)
        rows = conn.execute(f"SELECT id, data FROM traces WHERE space_id = ? AND ({found})", (space_id, *chunk))
        for trace_id, data in rows.fetchall():
            conn.execute("UPDATE traces SET data = ? WHERE id = ?", (dump_json(cut(json.loads(data))), trace_id))


def forget_lineage(
    conn: Any,
    space_id: str,
    lineage_id: str,
    *,
    actor: str,
    key: str,
    lock: str,
    contains: str,
    delete: Callable[[Any, list[Any]], int],
) -> int:
    """Inside the caller's write transaction: erase every version of a lineage; returns how many.
    `key` is the records' row key, `lock` what ends the read of them, `contains` the backend's SQL for
    "`data` holds the bound text", `delete(conn, row keys)` removes the rows and returns the vectors
    it removed. NotFound when the lineage has no version in the space."""
    rows = conn.execute(
        f"SELECT {key}, id FROM records WHERE space_id = ? AND lineage_id = ?{lock}", (space_id, lineage_id)
    ).fetchall()
    if not rows:
        raise NotFound("no such record in this space")
    ids = [r[1] for r in rows]
    cut_links(conn, space_id, ids)
    forget_in_traces(conn, space_id, ids, contains=contains)
    removed_vectors = delete(conn, [r[0] for r in rows])
    queue_sync(conn, space_id, ids)  # the remote index deletes their documents
    conn.execute("DELETE FROM audit_events WHERE space_id = ? AND lineage_id = ?", (space_id, lineage_id))
    event = AuditEvent(
        id=new_id(),
        space_id=space_id,
        action=Action.FORGOTTEN,
        actor=actor,
        at=utcnow(),
        lineage_id=lineage_id,
        details={"versions": len(ids)},
    )
    insert_events(conn, [event])
    if removed_vectors:
        conn.execute("UPDATE spaces SET vec_removes = vec_removes + ? WHERE id = ?", (removed_vectors, space_id))
    return len(ids)
