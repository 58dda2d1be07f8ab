"""Records on SQLite: change sets written in one transaction, reads guarded by space, erasure."""

from __future__ import annotations

import builtins
import json
from collections.abc import Sequence
from typing import Any

from forethought.domain import Action, AuditEvent, Record, new_id
from forethought.domain.times import format_time, utcnow
from forethought.errors import Conflict, InvalidInput, NotFound
from forethought.store.contracts import RecordStore
from forethought.store.rows import RECORD_COLUMNS, dump_json, keyword_body, record_from_row, record_values
from forethought.store.sql.audit import insert_events
from forethought.store.sql.erasure import cut_links, forget_in_traces
from forethought.store.sqlite import search
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.erasure import delete_rows, purge, require_space
from forethought.store.sqlite.sql import chunks, marks, prefixed
from forethought.store.sqlite.vector_cache import VectorCache, encode_vector
from forethought.store.types import ChangeSet, NewRecord, RecordFilter

__all__ = ["SQLiteRecords"]

_INSERT = f"INSERT INTO records ({RECORD_COLUMNS}) VALUES ({marks(len(RECORD_COLUMNS.split(',')))})"


class SQLiteRecords(RecordStore):
    def __init__(self, db: Database, vectors: VectorCache, *, dim: int, secure_fts_delete: bool) -> None:
        self._db = db
        self._vectors = vectors
        self._dim = dim
        self._secure_fts_delete = secure_fts_delete

    # -- writing ---------------------------------------------------------------------------
    def apply(self, changes: ChangeSet) -> None:
        for new in changes.inserts:
            if new.record.space_id != changes.space_id:
                raise InvalidInput("a change set may only write records of its own space")
        for before, after in changes.transitions:
            if before.id != after.id or after.space_id != changes.space_id:
                raise InvalidInput("a transition must change one record of the change set's space")

        def write(conn: Any) -> None:
            require_space(conn, changes.space_id)
            vectors_added = sum(self._insert(conn, new) for new in changes.inserts)
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
                    "SELECT evidence FROM records WHERE id = ? AND space_id = ?", (record_id, changes.space_id)
                ).fetchone()
                if row is None:
                    raise NotFound(f"no record {record_id!r} in this space")
                merged = json.loads(row[0])
                for quote in quotes:
                    item = quote.model_dump(mode="json")
                    if item not in merged:
                        merged.append(item)
                conn.execute("UPDATE records SET evidence = ? WHERE id = ?", (dump_json(merged), record_id))
            insert_events(conn, changes.events)
            if vectors_added:
                conn.execute(
                    "UPDATE spaces SET vec_adds = vec_adds + ? WHERE id = ?",
                    (vectors_added, changes.space_id),
                )

        self._db.write(write)

    def _insert(self, conn: Any, new: NewRecord) -> int:
        """Insert one record with its tags, terms, keyword entry and vector (or outbox job);
        returns the vectors added (0 or 1)."""
        record = new.record
        rowid = conn.execute(_INSERT, record_values(record)).lastrowid
        conn.executemany(
            "INSERT INTO record_tags (record_rowid, space_id, tag) VALUES (?, ?, ?)",
            [(rowid, record.space_id, tag) for tag in record.tags],
        )
        conn.executemany(
            "INSERT OR IGNORE INTO record_terms (record_rowid, space_id, term) VALUES (?, ?, ?)",
            [(rowid, record.space_id, term) for term in new.terms],
        )
        conn.execute(
            "INSERT INTO records_fts (rowid, body, space) VALUES (?, ?, ?)",
            (rowid, keyword_body(record, new.search_text), record.space_id),
        )
        if new.embed_later:
            conn.execute(
                "INSERT OR IGNORE INTO outbox (space_id, record_rowid, job, next_at) VALUES (?, ?, 'embed', ?)",
                (record.space_id, rowid, format_time(utcnow())),
            )
            return 0
        if new.vector is None:
            return 0
        if new.vector.shape != (self._dim,):
            raise InvalidInput(f"vector of shape {new.vector.shape}, expected ({self._dim},)")
        conn.execute(
            "INSERT INTO vectors (record_rowid, space_id, vec) VALUES (?, ?, ?)",
            (rowid, record.space_id, encode_vector(new.vector)),
        )
        return 1

    # -- reading ---------------------------------------------------------------------------
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
        if not record_ids:
            return []
        found: dict[str, Record] = {}
        for chunk in chunks(builtins.list(record_ids), 500):
            rows = self._db.fetch(f"SELECT {RECORD_COLUMNS} FROM records WHERE id IN ({marks(len(chunk))})", chunk)
            for row in rows:
                if self._db.own(space_id, row[1]):
                    found[row[0]] = record_from_row(row)
        return [found[i] for i in record_ids if i in found]

    def ids_in_use(self, record_ids: Sequence[str], *, space_id: str | None = None) -> set[str]:
        found: set[str] = set()
        where = "" if space_id is None else " AND space_id = ?"
        for chunk in chunks(builtins.list(record_ids), 500):
            args = [*chunk] if space_id is None else [*chunk, space_id]
            rows = self._db.fetch(f"SELECT id FROM records WHERE id IN ({marks(len(chunk))}){where}", args)
            found.update(r[0] for r in rows)
        return found

    def find_by_external_id(self, space_id: str, external_id: str) -> Record | None:
        row = self._db.read(
            lambda c: c.execute(
                f"SELECT {RECORD_COLUMNS} FROM records WHERE space_id = ? AND external_id = ?",
                (space_id, external_id),
            ).fetchone()
        )
        return None if row is None or not self._db.own(space_id, row[1]) else record_from_row(row)

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
        where, params = search.filter_sql(flt)
        sql = f"SELECT {prefixed(RECORD_COLUMNS)} FROM records r WHERE r.space_id = ? AND {where}"
        args: builtins.list[Any] = [space_id, *params]
        if after_id is not None:
            sql += " AND r.id < ?" if newest_first else " AND r.id > ?"
            args.append(after_id)
        sql += f" ORDER BY r.id {'DESC' if newest_first else 'ASC'} LIMIT ?"
        args.append(limit)
        rows = self._db.fetch(sql, args)
        return [record_from_row(r) for r in rows if self._db.own(space_id, r[1])]

    def count(self, space_id: str, flt: RecordFilter) -> int:
        where, params = search.filter_sql(flt)
        rows = self._db.fetch(f"SELECT COUNT(*) FROM records r WHERE r.space_id = ? AND {where}", (space_id, *params))
        return int(rows[0][0])

    def statement_tokens(self, space_id: str, flt: RecordFilter) -> int:
        where, params = search.filter_sql(flt)
        # Words are counted as spaces + 1: close to str.split() for prose, and cheap in SQL.
        rows = self._db.fetch(
            "SELECT COALESCE(SUM(MAX(1, (LENGTH(r.statement) + 3) / 4,"
            " LENGTH(r.statement) - LENGTH(REPLACE(r.statement, ' ', '')) + 1)), 0)"
            f" FROM records r WHERE r.space_id = ? AND {where}",
            (space_id, *params),
        )
        return int(rows[0][0])

    # -- erasure ---------------------------------------------------------------------------
    def forget(self, space_id: str, lineage_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            rows = conn.execute(
                "SELECT rowid, id FROM records WHERE space_id = ? AND lineage_id = ?", (space_id, lineage_id)
            ).fetchall()
            if not rows:
                raise NotFound("no such record in this space")
            ids = [r[1] for r in rows]
            cut_links(conn, space_id, ids)
            forget_in_traces(conn, space_id, ids, contains="instr(data, ?) > 0")
            removed_vectors = delete_rows(conn, [r[0] for r in rows])
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
                conn.execute(
                    "UPDATE spaces SET vec_removes = vec_removes + ? WHERE id = ?",
                    (removed_vectors, space_id),
                )
            return len(ids)

        removed = self._db.write(erase)
        self._vectors.delete_snapshot(space_id)  # it may hold the erased vectors
        purge(self._db, secure_fts_delete=self._secure_fts_delete)
        return removed
