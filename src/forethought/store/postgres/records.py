"""Records on PostgreSQL: change sets written in one transaction, reads guarded by space, erasure."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from forethought.domain.times import format_time, utcnow
from forethought.errors import InvalidInput
from forethought.store.postgres.connection import Database
from forethought.store.postgres.driver import vector_literal
from forethought.store.postgres.erasure import delete_records, require_space
from forethought.store.postgres.search import TEXT_SEARCH
from forethought.store.rows import RECORD_COLUMNS, keyword_body, record_values
from forethought.store.sql.audit import insert_events
from forethought.store.sql.erasure import forget_lineage
from forethought.store.sql.filters import marks
from forethought.store.sql.index_sync import queue_sync
from forethought.store.sql.records import (
    SqlRecordReads,
    changed_ids,
    check_change_set,
    write_transitions_and_evidence,
)
from forethought.store.sql.vectors import evidence_rows
from forethought.store.types import ChangeSet, NewRecord

__all__ = ["ANALYZE_AFTER", "PostgresRecords"]

_INSERT_HEAD = f"INSERT INTO records ({RECORD_COLUMNS}, body) VALUES "
_ROW = f"({marks(len(RECORD_COLUMNS.split(',')))}, to_tsvector('{TEXT_SEARCH}', ?))"
ANALYZE_AFTER = 1_000  # inserts through one store that count as a bulk load
_ROWS_PER_INSERT = 500  # 25 parameters a row: well inside PostgreSQL's 65,535 a statement
_COLUMNS_R = ", ".join(f"r.{c.strip()}" for c in RECORD_COLUMNS.split(","))


class PostgresRecords(SqlRecordReads):
    _db: Database
    _key = "seq"
    _tag_key = "record_seq"
    _greatest = "GREATEST"

    def __init__(self, db: Database, *, dim: int) -> None:
        self._db = db
        self._dim = dim
        self._analyze_lock = threading.Lock()
        self._inserted_since_analyze = 0
        self._rows_at_analyze = 0

    # -- writing ---------------------------------------------------------------------------
    def apply(self, changes: ChangeSet) -> None:
        check_change_set(changes)
        for new in changes.inserts:
            for vector in (new.vector, new.evidence_vector):
                if vector is not None and not new.embed_later and vector.shape != (self._dim,):
                    raise InvalidInput(f"vector of shape {vector.shape}, expected ({self._dim},)")

        def write(conn: Any) -> None:
            require_space(conn, changes.space_id)
            vectors_added = self._insert(conn, changes.inserts)
            write_transitions_and_evidence(conn, changes, lock=" FOR UPDATE")
            queue_sync(conn, changes.space_id, changed_ids(changes))
            insert_events(conn, changes.events)
            if vectors_added:
                conn.execute(
                    "UPDATE spaces SET vec_adds = vec_adds + ? WHERE id = ?", (vectors_added, changes.space_id)
                )

        self._db.write(write)
        self._maybe_analyze(len(changes.inserts))

    def _maybe_analyze(self, inserted: int) -> None:
        """A bulk load leaves the planner's statistics stale until autovacuum's next pass (a minute
        or more), and recall on such plans was measured several times slower: after `ANALYZE_AFTER`
        inserts through this store, and a fifth of what the tables held at the last refresh,
        refresh them now (it samples, so it stays cheap as the tables grow)."""
        with self._analyze_lock:
            self._inserted_since_analyze += inserted
            if self._inserted_since_analyze < max(ANALYZE_AFTER, self._rows_at_analyze // 5):
                return
            self._inserted_since_analyze = 0

        def analyze(conn: Any) -> int:
            conn.execute("ANALYZE records, record_vectors, record_terms, record_tags, record_lexemes")
            return int(conn.execute("SELECT reltuples FROM pg_class WHERE relname = 'records'").fetchone()[0])

        self._rows_at_analyze = self._db.write(analyze)

    def _insert(self, conn: Any, news: Sequence[NewRecord]) -> int:
        """Insert records with their tags, terms, keyword entries and vectors (or outbox jobs), a
        statement per table for the whole batch; returns the vectors added."""
        if not news:
            return 0
        seqs: dict[str, int] = {}
        for start in range(0, len(news), _ROWS_PER_INSERT):
            chunk = news[start : start + _ROWS_PER_INSERT]
            values = [v for n in chunk for v in (*record_values(n.record), keyword_body(n.record, n.search_text))]
            rows = conn.execute(_INSERT_HEAD + ", ".join([_ROW] * len(chunk)) + " RETURNING id, seq", values)
            seqs.update((str(r[0]), int(r[1])) for r in rows.fetchall())
        space_id = news[0].record.space_id
        conn.execute(  # the space's keyword statistics, in lexeme order (every writer locks rows alike)
            "INSERT INTO record_lexemes (space_id, lexeme, df) SELECT ?, lexeme, COUNT(*) FROM"
            " (SELECT unnest(tsvector_to_array(body)) AS lexeme FROM records WHERE seq = ANY(?)) held"
            " GROUP BY lexeme ORDER BY lexeme"
            " ON CONFLICT (space_id, lexeme) DO UPDATE SET df = record_lexemes.df + EXCLUDED.df",
            (space_id, list(seqs.values())),
        )
        tags = [(seqs[n.record.id], tag) for n in news for tag in dict.fromkeys(n.record.tags)]
        terms = [(seqs[n.record.id], term) for n in news for term in dict.fromkeys(n.terms)]
        for table, column, pairs in (("record_tags", "tag", tags), ("record_terms", "term", terms)):
            if pairs:
                conn.execute(
                    f"INSERT INTO {table} (record_seq, space_id, {column})"
                    " SELECT s, ?, v FROM unnest(?::bigint[], ?::text[]) AS t(s, v) ON CONFLICT DO NOTHING",
                    (space_id, [p[0] for p in pairs], [p[1] for p in pairs]),
                )
        later = [seqs[n.record.id] for n in news if n.embed_later]
        if later:
            conn.execute(
                "INSERT INTO outbox (space_id, record_seq, job, next_at)"
                " SELECT ?, s, 'embed', ? FROM unnest(?::bigint[]) AS t(s) ON CONFLICT DO NOTHING",
                (space_id, format_time(utcnow()), later),
            )
        embedded = [n for n in news if not n.embed_later and n.vector is not None]
        if embedded:
            conn.execute(
                "INSERT INTO record_vectors (record_seq, space_id, embedding)"
                " SELECT s, ?, e::vector FROM unnest(?::bigint[], ?::text[]) AS t(s, e)",
                (space_id, [seqs[n.record.id] for n in embedded], [vector_literal(n.vector) for n in embedded]),  # type: ignore[arg-type]
            )
            quotes = evidence_rows(embedded, lambda n: seqs[n.record.id])
            if quotes:
                conn.execute(
                    "INSERT INTO evidence_vectors (record_seq, space_id, digest, vec)"
                    " SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bytea[])",
                    tuple(map(list, zip(*quotes, strict=True))),
                )
        return len(embedded)

    # -- erasure ---------------------------------------------------------------------------
    def forget(self, space_id: str, lineage_id: str, *, actor: str) -> int:
        def erase(conn: Any) -> int:
            return forget_lineage(
                conn,
                space_id,
                lineage_id,
                actor=actor,
                key="seq",
                lock=" FOR UPDATE",
                contains="strpos(data, ?) > 0",
                delete=delete_records,
            )

        removed: int = self._db.write(erase)
        return removed
