"""The embedded default store: one SQLite file (WAL) holding every space."""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from forethought.domain import Action, AuditEvent, Record, Session, Space, SpaceKey, Turn, new_id
from forethought.domain.ids import space_id_for
from forethought.domain.keys import ApiKey
from forethought.domain.times import format_time, parse_time, utcnow
from forethought.errors import BackendError, Conflict, InvalidInput, NotFound
from forethought.store.base import Capabilities, ChangeSet, Job, RecordFilter, ScoredId, Store, Vector
from forethought.store.sqlite import search
from forethought.store.sqlite.driver import connect, retrying, sqlite3, supports_fts_secure_delete
from forethought.store.sqlite.migrate import apply_migrations
from forethought.store.sqlite.rows import (
    AUDIT_COLUMNS,
    RECORD_COLUMNS,
    audit_from_row,
    audit_values,
    dump_json,
    record_from_row,
    record_values,
    session_from_rows,
    session_values,
)
from forethought.store.sqlite.vector_cache import VectorCache, encode_vector
from forethought.vectors import DEFAULT_THRESHOLD

__all__ = ["SQLiteStore"]

log = logging.getLogger(__name__)
T = TypeVar("T")


class SQLiteStore(Store):
    """A Store on one SQLite file. Safe for many threads (a connection each) and many processes."""

    def __init__(self, path: str | Path, *, dim: int = 384, hnsw_threshold: int = DEFAULT_THRESHOLD) -> None:
        super().__init__()
        self.path = Path(path) if str(path) != ":memory:" else None
        self._target = str(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.capabilities = Capabilities(fts=True, vectors=True, secure_fts_delete=supports_fts_secure_delete())
        self._local = threading.local()
        self._all_conns: list[Any] = []
        self._conns_lock = threading.Lock()
        self._closed = False
        # Vector snapshots live beside the database (a derived cache: deleting them is harmless).
        snapshots = None if self.path is None else self.path.with_name(self.path.name + ".vectors")
        self.vectors = VectorCache(dim, snapshot_dir=snapshots, threshold=hnsw_threshold)
        self.dim = dim
        conn = self._conn()
        retrying(lambda: apply_migrations(conn))
        self._secret = self._load_secret()

    # -- connections and transactions -----------------------------------------------------
    def _conn(self) -> Any:
        if self._closed:
            raise BackendError("the store is closed")
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self.path is None and self._all_conns:
                conn = self._all_conns[0]  # ":memory:" exists once; share its connection
            else:
                conn = connect(self._target)
                with self._conns_lock:
                    self._all_conns.append(conn)
            self._local.conn = conn
        return conn

    def _count_retry(self) -> None:
        self.counters.lock_retries += 1

    def _write(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(conn)` in one write transaction, retried as a whole while the file is busy."""
        conn = self._conn()

        def attempt() -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(conn)
                conn.execute("COMMIT")
                return result
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

        return retrying(attempt, counter=self._count_retry)

    def _read(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(conn)` in one read transaction (a consistent snapshot)."""
        conn = self._conn()

        def attempt() -> T:
            conn.execute("BEGIN")
            try:
                return fn(conn)
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")

        return retrying(attempt, counter=self._count_retry)

    def _fetch(self, sql: str, args: Sequence[Any]) -> list[Any]:
        rows: list[Any] = self._read(lambda c: c.execute(sql, args).fetchall())
        return rows

    def close(self) -> None:
        with self._conns_lock:
            for conn in self._all_conns:
                with contextlib.suppress(sqlite3.Error):  # closing is best effort
                    conn.close()
            self._all_conns.clear()
        self._closed = True

    def _load_secret(self) -> bytes:
        def load(conn: Any) -> bytes:
            row = conn.execute("SELECT value FROM meta WHERE key = 'space_secret'").fetchone()
            if row is None:
                value = secrets.token_hex(32)
                conn.execute("INSERT INTO meta (key, value) VALUES ('space_secret', ?)", (value,))
                if self.capabilities.secure_fts_delete:
                    # A persistent FTS5 option: deletes then remove the terms from the index itself.
                    conn.execute("INSERT INTO records_fts (records_fts, rank) VALUES ('secure-delete', 1)")
                return bytes.fromhex(value)
            return bytes.fromhex(row[0])

        return self._write(load)

    def stats(self) -> dict[str, Any]:
        def read(conn: Any) -> dict[str, Any]:
            return {
                "kind": "sqlite",
                "path": self._target,
                "sqlite": sqlite3.sqlite_version,
                "fts_secure_delete": self.capabilities.secure_fts_delete,
                "schema_version": conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0],
                "spaces": conn.execute("SELECT COUNT(*) FROM spaces").fetchone()[0],
                "records": conn.execute("SELECT COUNT(*) FROM records").fetchone()[0],
                "records_by_status": dict(conn.execute("SELECT status, COUNT(*) FROM records GROUP BY status")),
                "pending_outbox_jobs": conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0],
            }

        info = self._read(read)
        if self.path is not None:
            info["size_mb"] = round(sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*")) / 1e6, 2)
        return info

    def check_embedder(self, name: str, dim: int) -> None:
        if dim != self.dim:
            raise BackendError(f"embedder {name} makes {dim}-dimensional vectors; this store was opened for {self.dim}")

        def check(conn: Any) -> None:
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
            if row is None:
                conn.execute("INSERT INTO meta (key, value) VALUES ('embedder', ?)", (name,))
            elif row[0] != name:
                raise Conflict(
                    f"this database holds vectors from embedder {row[0]!r}, not {name!r}; "
                    "open it with the same embedder"
                )

        self._write(check)

    # -- spaces ----------------------------------------------------------------------------
    def resolve_space(self, key: SpaceKey, *, create: bool = True) -> Space:
        space_id = space_id_for(self._secret, key.workspace, key.subject_type, key.subject_id)

        def find(conn: Any) -> Any:
            return conn.execute("SELECT created_at FROM spaces WHERE id = ?", (space_id,)).fetchone()

        row = self._read(find)
        if row is None:
            if not create:
                raise NotFound(f"no space for {key.subject_type} {key.subject_id!r}")
            now = format_time(utcnow())

            def insert(conn: Any) -> Any:
                conn.execute(
                    "INSERT OR IGNORE INTO spaces (id, workspace, subject_type, subject_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (space_id, key.workspace, key.subject_type, key.subject_id, now),
                )
                return find(conn)

            row = self._write(insert)
        return Space(id=space_id, key=key, created_at=parse_time(row[0]))

    def list_spaces(self, workspace: str | None = None) -> list[Space]:
        sql = "SELECT id, workspace, subject_type, subject_id, created_at FROM spaces"
        params: tuple[Any, ...] = ()
        if workspace is not None:
            sql += " WHERE workspace = ?"
            params = (workspace,)
        rows = self._read(lambda c: c.execute(sql + " ORDER BY created_at", params).fetchall())
        return [
            Space(
                id=r[0],
                key=SpaceKey(workspace=r[1], subject_type=r[2], subject_id=r[3]),
                created_at=parse_time(r[4]),
            )
            for r in rows
        ]

    def erase_space(self, space_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            rowids = [r[0] for r in conn.execute("SELECT rowid FROM records WHERE space_id = ?", (space_id,))]
            self._delete_rows(conn, rowids)
            conn.execute("DELETE FROM sessions WHERE space_id = ?", (space_id,))
            conn.execute("DELETE FROM audit_events WHERE space_id = ?", (space_id,))
            conn.execute("DELETE FROM spaces WHERE id = ?", (space_id,))
            conn.execute(
                f"INSERT INTO audit_events ({AUDIT_COLUMNS}) VALUES ({_marks(11)})",
                audit_values(
                    AuditEvent(
                        id=new_id(),
                        space_id=space_id,
                        action=Action.SPACE_ERASED,
                        actor=actor,
                        at=utcnow(),
                        details={"records": len(rowids)},
                    )
                ),
            )
            return len(rowids)

        removed = self._write(erase)
        self.vectors.drop(space_id)
        self._purge()
        return removed

    # -- records ---------------------------------------------------------------------------
    def apply(self, changes: ChangeSet) -> None:
        for new in changes.inserts:
            if new.record.space_id != changes.space_id:
                raise InvalidInput("a change set may only write records of its own space")
        for before, after in changes.transitions:
            if before.id != after.id or after.space_id != changes.space_id:
                raise InvalidInput("a transition must change one record of the change set's space")

        def write(conn: Any) -> None:
            self._require_space(conn, changes.space_id)
            vectors_added = 0
            for new in changes.inserts:
                record = new.record
                cur = conn.execute(
                    f"INSERT INTO records ({RECORD_COLUMNS}) VALUES ({_marks(24)})", record_values(record)
                )
                rowid = cur.lastrowid
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
                    (rowid, search.fts_body(record, new.search_text), record.space_id),
                )
                if new.embed_later:
                    conn.execute(
                        "INSERT OR IGNORE INTO outbox (space_id, record_rowid, job, next_at) VALUES (?, ?, 'embed', ?)",
                        (record.space_id, rowid, format_time(utcnow())),
                    )
                elif new.vector is not None:
                    if new.vector.shape != (self.dim,):
                        raise InvalidInput(f"vector of shape {new.vector.shape}, expected ({self.dim},)")
                    conn.execute(
                        "INSERT INTO vectors (record_rowid, space_id, vec) VALUES (?, ?, ?)",
                        (rowid, record.space_id, encode_vector(new.vector)),
                    )
                    vectors_added += 1
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
                conn.execute(
                    "UPDATE records SET evidence = ? WHERE id = ?",
                    (dump_json(merged), record_id),
                )
            conn.executemany(
                f"INSERT INTO audit_events ({AUDIT_COLUMNS}) VALUES ({_marks(11)})",
                [audit_values(e) for e in changes.events],
            )
            if vectors_added:
                conn.execute(
                    "UPDATE spaces SET vec_adds = vec_adds + ? WHERE id = ?",
                    (vectors_added, changes.space_id),
                )

        self._write(write)

    @staticmethod
    def _require_space(conn: Any, space_id: str) -> None:
        if conn.execute("SELECT 1 FROM spaces WHERE id = ?", (space_id,)).fetchone() is None:
            raise NotFound("no such space (it may have been erased)")

    def get(self, space_id: str, record_id: str) -> Record:
        def find(conn: Any) -> list[Any]:
            rows: list[Any] = conn.execute(
                f"SELECT {RECORD_COLUMNS} FROM records WHERE id = ?", (record_id,)
            ).fetchall()
            if not rows:
                rows = conn.execute(
                    f"SELECT {RECORD_COLUMNS} FROM records WHERE space_id = ? AND handle = ?",
                    (space_id, record_id.lower()),
                ).fetchall()
            return rows

        rows = [r for r in self._read(find) if self._own(space_id, r[1])]
        if not rows:
            raise NotFound(f"no record {record_id!r} in this space")
        if len(rows) > 1:
            raise InvalidInput(f"handle {record_id!r} is ambiguous in this space; use the full id")
        return record_from_row(rows[0])

    def _own(self, space_id: str, row_space: str) -> bool:
        """Fail closed: a row of another space is dropped, counted and logged."""
        if row_space == space_id:
            return True
        self.counters.foreign_rows_dropped += 1
        log.warning("dropped a row of another space from a result (isolation guard)")
        return False

    def get_many(self, space_id: str, record_ids: Sequence[str]) -> list[Record]:
        if not record_ids:
            return []
        found: dict[str, Record] = {}
        for chunk in _chunks(list(record_ids), 500):
            rows = self._fetch(f"SELECT {RECORD_COLUMNS} FROM records WHERE id IN ({_marks(len(chunk))})", chunk)
            for row in rows:
                if self._own(space_id, row[1]):
                    found[row[0]] = record_from_row(row)
        return [found[i] for i in record_ids if i in found]

    def ids_in_use(self, record_ids: Sequence[str], *, space_id: str | None = None) -> set[str]:
        found: set[str] = set()
        where = "" if space_id is None else " AND space_id = ?"
        for chunk in _chunks(list(record_ids), 500):
            args = [*chunk] if space_id is None else [*chunk, space_id]
            sql = f"SELECT id FROM records WHERE id IN ({_marks(len(chunk))}){where}"
            rows = self._fetch(sql, args)
            found.update(r[0] for r in rows)
        return found

    def find_by_external_id(self, space_id: str, external_id: str) -> Record | None:
        row = self._read(
            lambda c: c.execute(
                f"SELECT {RECORD_COLUMNS} FROM records WHERE space_id = ? AND external_id = ?",
                (space_id, external_id),
            ).fetchone()
        )
        return None if row is None or not self._own(space_id, row[1]) else record_from_row(row)

    def lineage(self, space_id: str, lineage_id: str) -> list[Record]:
        rows = self._read(
            lambda c: c.execute(
                f"SELECT {RECORD_COLUMNS} FROM records WHERE space_id = ? AND lineage_id = ? ORDER BY version",
                (space_id, lineage_id),
            ).fetchall()
        )
        return [record_from_row(r) for r in rows if self._own(space_id, r[1])]

    def list_records(
        self,
        space_id: str,
        flt: RecordFilter,
        *,
        limit: int = 100,
        after_id: str | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        where, params = search.filter_sql(flt)
        sql = f"SELECT {_prefixed(RECORD_COLUMNS)} FROM records r WHERE r.space_id = ? AND {where}"
        args: list[Any] = [space_id, *params]
        if after_id is not None:
            sql += " AND r.id < ?" if newest_first else " AND r.id > ?"
            args.append(after_id)
        sql += f" ORDER BY r.id {'DESC' if newest_first else 'ASC'} LIMIT ?"
        args.append(limit)
        rows = self._read(lambda c: c.execute(sql, args).fetchall())
        return [record_from_row(r) for r in rows if self._own(space_id, r[1])]

    def count_records(self, space_id: str, flt: RecordFilter) -> int:
        where, params = search.filter_sql(flt)
        row = self._read(
            lambda c: c.execute(
                f"SELECT COUNT(*) FROM records r WHERE r.space_id = ? AND {where}", (space_id, *params)
            ).fetchone()
        )
        return int(row[0])

    def statement_tokens(self, space_id: str, flt: RecordFilter) -> int:
        where, params = search.filter_sql(flt)
        # Words are counted as spaces + 1: close to str.split() for prose, and cheap in SQL.
        row = self._read(
            lambda c: c.execute(
                "SELECT COALESCE(SUM(MAX(1, (LENGTH(r.statement) + 3) / 4,"
                " LENGTH(r.statement) - LENGTH(REPLACE(r.statement, ' ', '')) + 1)), 0)"
                f" FROM records r WHERE r.space_id = ? AND {where}",
                (space_id, *params),
            ).fetchone()
        )
        return int(row[0])

    def forget(self, space_id: str, lineage_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            rows = conn.execute(
                "SELECT rowid, id FROM records WHERE space_id = ? AND lineage_id = ?", (space_id, lineage_id)
            ).fetchall()
            if not rows:
                raise NotFound("no such record in this space")
            ids = [r[1] for r in rows]
            self._cut_links(conn, space_id, ids)
            removed_vectors = self._delete_rows(conn, [r[0] for r in rows])
            conn.execute("DELETE FROM audit_events WHERE space_id = ? AND lineage_id = ?", (space_id, lineage_id))
            conn.execute(
                f"INSERT INTO audit_events ({AUDIT_COLUMNS}) VALUES ({_marks(11)})",
                audit_values(
                    AuditEvent(
                        id=new_id(),
                        space_id=space_id,
                        action=Action.FORGOTTEN,
                        actor=actor,
                        at=utcnow(),
                        lineage_id=lineage_id,
                        details={"versions": len(ids)},
                    )
                ),
            )
            if removed_vectors:
                conn.execute(
                    "UPDATE spaces SET vec_removes = vec_removes + ? WHERE id = ?",
                    (removed_vectors, space_id),
                )
            return len(ids)

        removed = self._write(erase)
        self.vectors.delete_snapshot(space_id)  # it may hold the erased vectors
        self._purge()
        return removed

    @staticmethod
    def _cut_links(conn: Any, space_id: str, ids: list[str]) -> None:
        """Remove references to erased ids from the records that point at them."""
        gone = set(ids)
        marks = _marks(len(ids))
        rows = conn.execute(
            f"SELECT id, supersedes, superseded_by, previous_id FROM records WHERE space_id = ? AND id NOT IN ({marks})"
            f" AND (superseded_by IN ({marks}) OR previous_id IN ({marks}) OR supersedes != '[]')",
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

    def _delete_rows(self, conn: Any, rowids: list[int]) -> int:
        """Delete records by rowid from every table and index; returns vectors removed."""
        removed_vectors = 0
        for chunk in _chunks(rowids, 500):
            marks = _marks(len(chunk))
            conn.execute(f"DELETE FROM records_fts WHERE rowid IN ({marks})", chunk)
            removed_vectors += conn.execute(f"DELETE FROM vectors WHERE record_rowid IN ({marks})", chunk).rowcount
            conn.execute(f"DELETE FROM record_tags WHERE record_rowid IN ({marks})", chunk)
            conn.execute(f"DELETE FROM record_terms WHERE record_rowid IN ({marks})", chunk)
            conn.execute(f"DELETE FROM records WHERE rowid IN ({marks})", chunk)
        return int(removed_vectors)

    def _purge(self) -> None:
        """After an erasure: make sure no trace of the text survives in index segments or the WAL."""
        conn = self._conn()

        def purge() -> None:
            if not self.capabilities.secure_fts_delete:
                conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        try:
            retrying(purge, counter=self._count_retry)
        except BackendError:  # pragma: no cover - a checkpoint blocked by readers is retried later
            log.warning("could not checkpoint after an erasure; the WAL is cleared at the next checkpoint")

    # -- outbox ----------------------------------------------------------------------------
    def claim_jobs(self, *, limit: int, lease_s: float = 60.0) -> list[Job]:
        now = utcnow()

        def claim(conn: Any) -> list[Job]:
            rows = conn.execute(
                "SELECT o.id, o.space_id, r.id, o.job, o.attempts FROM outbox o"
                " JOIN records r ON r.rowid = o.record_rowid WHERE o.next_at <= ? ORDER BY o.next_at LIMIT ?",
                (format_time(now), limit),
            ).fetchall()
            lease = format_time(now + timedelta(seconds=lease_s))
            conn.executemany("UPDATE outbox SET next_at = ? WHERE id = ?", [(lease, r[0]) for r in rows])
            return [Job(id=r[0], space_id=r[1], record_id=r[2], kind=r[3], attempts=r[4]) for r in rows]

        return self._write(claim)

    def complete_embedding(self, job: Job, vector: Vector) -> None:
        if vector.shape != (self.dim,):
            raise InvalidInput(f"vector of shape {vector.shape}, expected ({self.dim},)")

        def finish(conn: Any) -> None:
            row = conn.execute(
                "SELECT o.record_rowid FROM outbox o JOIN records r ON r.rowid = o.record_rowid"
                " WHERE o.id = ? AND r.id = ? AND r.space_id = ?",
                (job.id, job.record_id, job.space_id),
            ).fetchone()
            if row is None:
                return  # done already, or the record was erased meanwhile
            added = conn.execute(
                "INSERT OR IGNORE INTO vectors (record_rowid, space_id, vec) VALUES (?, ?, ?)",
                (row[0], job.space_id, encode_vector(vector)),
            ).rowcount
            if added:
                conn.execute("UPDATE spaces SET vec_adds = vec_adds + 1 WHERE id = ?", (job.space_id,))
            conn.execute("DELETE FROM outbox WHERE id = ?", (job.id,))

        self._write(finish)

    def retry_job(self, job: Job, error: str, *, delay_s: float) -> None:
        due = format_time(utcnow() + timedelta(seconds=delay_s))
        self._write(
            lambda c: c.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE id = ?",
                (due, error[:500], job.id),
            )
        )

    def pending_jobs(self, space_id: str | None = None) -> int:
        if space_id is None:
            row = self._read(lambda c: c.execute("SELECT COUNT(*) FROM outbox").fetchone())
        else:
            row = self._read(
                lambda c: c.execute("SELECT COUNT(*) FROM outbox WHERE space_id = ?", (space_id,)).fetchone()
            )
        return int(row[0])

    # -- search ----------------------------------------------------------------------------
    def keyword_search(self, space_id: str, words: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        if not words:
            return []
        return self._read(lambda c: search.keyword(c, space_id, words, flt, limit, self._own))

    def vector_search(self, space_id: str, vector: Vector, flt: RecordFilter, limit: int) -> list[ScoredId]:
        found = self._read(lambda c: search.nearest(c, self.vectors, space_id, vector, flt, limit, self._own))
        self.vectors.maybe_snapshot(space_id, lambda: self._removes(space_id))
        return found

    def _removes(self, space_id: str) -> int | None:
        row = self._read(lambda c: c.execute("SELECT vec_removes FROM spaces WHERE id = ?", (space_id,)).fetchone())
        return None if row is None else int(row[0])

    def term_search(self, space_id: str, terms: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        if not terms:
            return []
        return self._read(lambda c: search.by_terms(c, space_id, terms, flt, limit, self._own))

    # -- sessions --------------------------------------------------------------------------
    def add_session(self, session: Session, events: Sequence[AuditEvent] = ()) -> None:
        def write(conn: Any) -> None:
            self._require_space(conn, session.space_id)
            conn.execute(
                "INSERT INTO sessions (id, space_id, title, source, created_at, metadata) VALUES (?, ?, ?, ?, ?, ?)",
                session_values(session),
            )
            conn.executemany(
                "INSERT INTO turns (session_id, idx, role, speaker, text, occurred_at) VALUES (?, ?, ?, ?, ?, ?)",
                [_turn_values(session.id, t) for t in session.turns],
            )
            conn.executemany(
                f"INSERT INTO audit_events ({AUDIT_COLUMNS}) VALUES ({_marks(11)})",
                [audit_values(e) for e in events],
            )

        self._write(write)

    def append_turns(self, space_id: str, session_id: str, turns: Sequence[Turn]) -> None:
        def write(conn: Any) -> None:
            row = conn.execute("SELECT space_id FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None or not self._own(space_id, row[0]):
                raise NotFound(f"no session {session_id!r} in this space")
            conn.executemany(
                "INSERT INTO turns (session_id, idx, role, speaker, text, occurred_at) VALUES (?, ?, ?, ?, ?, ?)",
                [_turn_values(session_id, t) for t in turns],
            )

        self._write(write)

    def get_session(self, space_id: str, session_id: str) -> Session:
        def find(conn: Any) -> tuple[Any, list[Any]]:
            row = conn.execute(
                "SELECT id, space_id, title, source, created_at, metadata FROM sessions WHERE id = ?",
                (session_id,),
            ).fetchone()
            turns = (
                []
                if row is None
                else conn.execute(
                    "SELECT idx, role, speaker, text, occurred_at FROM turns WHERE session_id = ? ORDER BY idx",
                    (session_id,),
                ).fetchall()
            )
            return row, turns

        row, turns = self._read(find)
        if row is None or not self._own(space_id, row[1]):
            raise NotFound(f"no session {session_id!r} in this space")
        return session_from_rows(row, turns)

    def list_sessions(self, space_id: str, *, limit: int = 100, before_id: str | None = None) -> list[Session]:
        sql, args = _newest_first("sessions", "id", space_id, limit, before_id)
        ids = self._read(lambda c: [r[0] for r in c.execute(sql, args)])
        return [self.get_session(space_id, i) for i in ids]

    # -- traces ----------------------------------------------------------------------------
    def add_trace(
        self,
        space_id: str,
        trace_id: str,
        *,
        kind: str,
        session_id: str | None,
        created_at: datetime,
        data: dict[str, Any],
    ) -> None:
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)

        def write(conn: Any) -> None:
            self._require_space(conn, space_id)
            conn.execute(
                "INSERT INTO traces (id, space_id, session_id, kind, created_at, data) VALUES (?, ?, ?, ?, ?, ?)",
                (trace_id, space_id, session_id, kind, format_time(created_at), payload),
            )

        self._write(write)

    def get_trace(self, space_id: str, trace_id: str) -> dict[str, Any]:
        row = self._read(lambda c: c.execute("SELECT space_id, data FROM traces WHERE id = ?", (trace_id,)).fetchone())
        if row is None or not self._own(space_id, row[0]):
            raise NotFound(f"no trace {trace_id!r} in this space")
        data: dict[str, Any] = json.loads(row[1])
        return data

    def list_traces(self, space_id: str, *, limit: int = 50, before_id: str | None = None) -> list[dict[str, Any]]:
        rows = self._fetch(*_newest_first("traces", "space_id, data", space_id, limit, before_id))
        return [json.loads(r[1]) for r in rows if self._own(space_id, r[0])]

    # -- api keys --------------------------------------------------------------------------
    def add_api_key(self, key: ApiKey, key_hash: str) -> None:
        self._write(
            lambda c: c.execute(
                "INSERT INTO api_keys (id, workspace, name, hash, created_at) VALUES (?, ?, ?, ?, ?)",
                (key.id, key.workspace, key.name, key_hash, format_time(key.created_at)),
            )
        )

    def api_key_by_hash(self, key_hash: str) -> ApiKey | None:
        rows = self._fetch(
            "SELECT id, workspace, name, created_at, revoked_at FROM api_keys WHERE hash = ?", (key_hash,)
        )
        return _api_key(rows[0]) if rows else None

    def list_api_keys(self, workspace: str | None = None) -> list[ApiKey]:
        sql = "SELECT id, workspace, name, created_at, revoked_at FROM api_keys"
        rows = (
            self._fetch(sql + " ORDER BY created_at", ())
            if workspace is None
            else self._fetch(sql + " WHERE workspace = ? ORDER BY created_at", (workspace,))
        )
        return [_api_key(r) for r in rows]

    def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        def write(conn: Any) -> Any:
            conn.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?", (format_time(at), key_id)
            )
            return conn.execute(
                "SELECT id, workspace, name, created_at, revoked_at FROM api_keys WHERE id = ?", (key_id,)
            ).fetchone()

        row = self._write(write)
        if row is None:
            raise NotFound(f"no API key {key_id!r}")
        return _api_key(row)

    # -- audit -----------------------------------------------------------------------------
    def audit_events(
        self, space_id: str, *, record_id: str | None = None, limit: int = 100, before_seq: int | None = None
    ) -> list[AuditEvent]:
        sql = f"SELECT {AUDIT_COLUMNS}, seq FROM audit_events WHERE space_id = ?"
        args: list[Any] = [space_id]
        if record_id is not None:
            sql += " AND record_id = ?"
            args.append(record_id)
        if before_seq is not None:
            sql += " AND seq < ?"
            args.append(before_seq)
        sql += " ORDER BY seq DESC LIMIT ?"
        args.append(limit)
        rows = self._read(lambda c: c.execute(sql, args).fetchall())
        return [audit_from_row(r) for r in rows if self._own(space_id, r[1])]

    @contextmanager
    def raw(self) -> Iterator[Any]:
        """The calling thread's connection, for tests and maintenance tools only."""
        yield self._conn()


def _api_key(row: Sequence[Any]) -> ApiKey:
    return ApiKey(
        id=row[0],
        workspace=row[1],
        name=row[2],
        created_at=parse_time(row[3]),
        revoked_at=None if row[4] is None else parse_time(row[4]),
    )


def _newest_first(table: str, columns: str, space_id: str, limit: int, before_id: str | None) -> tuple[str, list[Any]]:
    """A space's rows newest first; with `before_id` (a keyset cursor) only older ones. A cursor
    naming a row of another space matches nothing."""
    sql = f"SELECT {columns} FROM {table} WHERE space_id = ?"
    args: list[Any] = [space_id]
    if before_id is not None:
        sql += f" AND (created_at, id) < (SELECT created_at, id FROM {table} WHERE id = ? AND space_id = ?)"
        args += [before_id, space_id]
    return sql + " ORDER BY created_at DESC, id DESC LIMIT ?", [*args, limit]


def _turn_values(session_id: str, turn: Turn) -> tuple[Any, ...]:
    when = None if turn.occurred_at is None else format_time(turn.occurred_at)
    return (session_id, turn.index, turn.role.value, turn.speaker, turn.text, when)


def _marks(n: int) -> str:
    return ", ".join("?" * n)


def _prefixed(columns: str) -> str:
    return ", ".join(f"r.{c.strip()}" for c in columns.split(","))


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
