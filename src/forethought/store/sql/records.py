"""What the SQL backends' RecordStores share: checking a change set, writing its transitions and
evidence, and every read (SQLite and PostgreSQL run the same statements; each backend names its
row key, its "greatest of" function and how it locks a row it is about to update)."""

from __future__ import annotations

import builtins
import json
from collections.abc import Sequence
from typing import Any

from forethought.domain import Record
from forethought.domain.times import format_time
from forethought.errors import Conflict, InvalidInput, NotFound
from forethought.store.contracts import RecordStore
from forethought.store.rows import RECORD_COLUMNS, dump_json, record_from_row
from forethought.store.sql.database import SqlDatabase
from forethought.store.sql.filters import filter_sql, marks
from forethought.store.types import ChangeSet, RecordFilter

__all__ = ["SqlRecordReads", "changed_ids", "check_change_set", "write_transitions_and_evidence"]

_COLUMNS_R = ", ".join(f"r.{c.strip()}" for c in RECORD_COLUMNS.split(","))
_CHUNK = 500  # ids bound in one statement (SQLite bounds a statement's parameters)


def check_change_set(changes: ChangeSet) -> None:
    """InvalidInput for a change set that writes outside its own space."""
    for new in changes.inserts:
        if new.record.space_id != changes.space_id:
            raise InvalidInput("a change set may only write records of its own space")
    for before, after in changes.transitions:
        if before.id != after.id or after.space_id != changes.space_id:
            raise InvalidInput("a transition must change one record of the change set's space")


def changed_ids(changes: ChangeSet) -> list[str]:
    """The records whose indexed state a change set changes (added evidence is not indexed)."""
    return [n.record.id for n in changes.inserts] + [after.id for _, after in changes.transitions]


def write_transitions_and_evidence(conn: Any, changes: ChangeSet, *, lock: str = "") -> None:
    """Compare-and-set every transition (Conflict when a status moved meanwhile) and merge the
    evidence appended to existing records; `lock` ends the evidence read (" FOR UPDATE")."""
    for before, after in changes.transitions:
        cur = conn.execute(
            "UPDATE records SET status = ?, valid_to = ?, superseded_by = ?"
            " WHERE id = ? AND space_id = ? AND status = ?",
            (
                after.status.value,
                None if after.valid_to is None else format_time(after.valid_to),
                after.superseded_by,
                after.id,
                after.space_id,
                before.status.value,
            ),
        )
        if cur.rowcount != 1:
            raise Conflict(f"record {after.handle} changed while this change was being made; retry")
    for record_id, quotes in changes.evidence:
        row = conn.execute(
            f"SELECT evidence FROM records WHERE id = ? AND space_id = ?{lock}", (record_id, changes.space_id)
        ).fetchone()
        if row is None:
            raise NotFound(f"no record {record_id!r} in this space")
        merged = json.loads(row[0])
        for quote in quotes:
            item = quote.model_dump(mode="json")
            if item not in merged:
                merged.append(item)
        conn.execute("UPDATE records SET evidence = ? WHERE id = ?", (dump_json(merged), record_id))


class SqlRecordReads(RecordStore):
    """Every read of the RecordStore contract, for a backend that sets `_db`, `_key` (its records'
    row key), `_tag_key` (the tag table's column for it) and `_greatest` (SQL's "greatest of")."""

    _db: SqlDatabase
    _key = "rowid"
    _tag_key = "record_rowid"
    _greatest = "MAX"

    def _filter(self, flt: RecordFilter) -> tuple[str, builtins.list[Any]]:
        return filter_sql(flt, key=self._key, tag_key=self._tag_key)

    def get(self, space_id: str, record_id: str) -> Record:
        def find(conn: Any) -> builtins.list[Any]:
            rows: builtins.list[Any] = conn.execute(
                f"SELECT {RECORD_COLUMNS} FROM records WHERE id = ?", (record_id,)
            ).fetchall()
            if not rows:
                rows = conn.execute(
                    f"SELECT {RECORD_COLUMNS} FROM records WHERE space_id = ? AND handle = ?",
                    (space_id, record_id.lower()),
                ).fetchall()
            return rows

        rows = [r for r in self._db.read(find) if self._db.own(space_id, r[1])]
        if not rows:
            raise NotFound(f"no record {record_id!r} in this space")
        if len(rows) > 1:
            raise InvalidInput(f"handle {record_id!r} is ambiguous in this space; use the full id")
        return record_from_row(rows[0])

    def get_many(self, space_id: str, record_ids: Sequence[str]) -> builtins.list[Record]:
        found: dict[str, Record] = {}
        wanted = builtins.list(record_ids)
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            rows = self._db.fetch(f"SELECT {RECORD_COLUMNS} FROM records WHERE id IN ({marks(len(chunk))})", chunk)
            found.update((row[0], record_from_row(row)) for row in rows if self._db.own(space_id, row[1]))
        return [found[i] for i in record_ids if i in found]

    def ids_in_use(self, record_ids: Sequence[str], *, space_id: str | None = None) -> set[str]:
        found: set[str] = set()
        where = "" if space_id is None else " AND space_id = ?"
        wanted = builtins.list(record_ids)
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            args = [*chunk] if space_id is None else [*chunk, space_id]
            rows = self._db.fetch(f"SELECT id FROM records WHERE id IN ({marks(len(chunk))}){where}", args)
            found.update(r[0] for r in rows)
        return found

    def find_by_external_id(self, space_id: str, external_id: str) -> Record | None:
        rows = self._db.fetch(
            f"SELECT {RECORD_COLUMNS} FROM records WHERE space_id = ? AND external_id = ?", (space_id, external_id)
        )
        return None if not rows or not self._db.own(space_id, rows[0][1]) else record_from_row(rows[0])

    def lineage(self, space_id: str, lineage_id: str) -> builtins.list[Record]:
        rows = self._db.fetch(
            f"SELECT {RECORD_COLUMNS} FROM records WHERE space_id = ? AND lineage_id = ? ORDER BY version",
            (space_id, lineage_id),
        )
        return [record_from_row(r) for r in rows if self._db.own(space_id, r[1])]

    def list(
        self,
        space_id: str,
        flt: RecordFilter,
        *,
        limit: int = 100,
        after_id: str | None = None,
        newest_first: bool = False,
    ) -> builtins.list[Record]:
        where, params = self._filter(flt)
        sql = f"SELECT {_COLUMNS_R} FROM records r WHERE r.space_id = ? AND {where}"
        args: builtins.list[Any] = [space_id, *params]
        if after_id is not None:
            sql += " AND r.id < ?" if newest_first else " AND r.id > ?"
            args.append(after_id)
        sql += f" ORDER BY r.id {'DESC' if newest_first else 'ASC'} LIMIT ?"
        args.append(limit)
        rows = self._db.fetch(sql, args)
        return [record_from_row(r) for r in rows if self._db.own(space_id, r[1])]

    def count(self, space_id: str, flt: RecordFilter) -> int:
        where, params = self._filter(flt)
        rows = self._db.fetch(f"SELECT COUNT(*) FROM records r WHERE r.space_id = ? AND {where}", (space_id, *params))
        return int(rows[0][0])

    def statement_tokens(self, space_id: str, flt: RecordFilter) -> int:
        where, params = self._filter(flt)
        # Words are counted as spaces + 1: close to str.split() for prose, and cheap in SQL.
        rows = self._db.fetch(
            f"SELECT COALESCE(SUM({self._greatest}(1, (LENGTH(r.statement) + 3) / 4,"
            " LENGTH(r.statement) - LENGTH(REPLACE(r.statement, ' ', '')) + 1)), 0)"
            f" FROM records r WHERE r.space_id = ? AND {where}",
            (space_id, *params),
        )
        return int(rows[0][0])
