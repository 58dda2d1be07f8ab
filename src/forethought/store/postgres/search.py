"""The store's three searches on PostgreSQL (`PostgresSearch`): the `tsvector` keyword index, the
pgvector HNSW index, and exact terms — plus the record filter they share with listings.

Keyword ranking is PostgreSQL's `ts_rank` with length normalisation (a document's rank divided by
1 + the log of its length), not SQLite's BM25: scores differ between the backends, the order of
matches is close, and recall fuses ranks, not raw scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from forethought.domain.times import format_time
from forethought.store.contracts import SearchIndex
from forethought.store.postgres.connection import Database
from forethought.store.postgres.driver import vector_literal
from forethought.store.types import RecordFilter, ScoredId, Vector

__all__ = ["TERM_FREQUENCY_CAP", "TEXT_SEARCH", "PostgresSearch", "any_word_query", "filter_sql"]

TEXT_SEARCH = "forethought"  # the text search configuration migration 1 creates
# Exact terms (identifiers, names) held by more records of a space than this are not searched.
TERM_FREQUENCY_CAP = 2_000
# How many index candidates a filtered nearest-neighbour scan may visit (pgvector's ef_search).
_EF_SEARCH_MAX = 1_000


def filter_sql(flt: RecordFilter, alias: str = "r") -> tuple[str, list[Any]]:
    """A WHERE fragment (over records aliased `alias`) and its parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if flt.statuses:
        clauses.append(f"{alias}.status = ANY(?)")
        params.append([s.value for s in flt.statuses])
    if flt.kinds:
        clauses.append(f"{alias}.kind = ANY(?)")
        params.append(list(flt.kinds))
    for tag in flt.tags:
        clauses.append(f"EXISTS (SELECT 1 FROM record_tags t WHERE t.record_seq = {alias}.seq AND t.tag = ?)")
        params.append(tag)
    if flt.occurred_after is not None:
        clauses.append(f"{alias}.occurred_at >= ?")
        params.append(format_time(flt.occurred_after))
    if flt.occurred_before is not None:
        clauses.append(f"{alias}.occurred_at < ?")
        params.append(format_time(flt.occurred_before))
    if flt.as_of is not None:
        when = format_time(flt.as_of)
        clauses.append(f"{alias}.occurred_at <= ? AND ({alias}.valid_to IS NULL OR {alias}.valid_to > ?)")
        params.extend([when, when])
    return (" AND ".join(clauses) or "TRUE"), params


def any_word_query(words: Sequence[str]) -> tuple[str, list[str]]:
    """A FROM item `w` whose column `q` is a tsquery matching any of `words`: each word goes
    through `plainto_tsquery`, so nothing a user types is read as query syntax; the parts are OR-ed."""
    parts = " || ".join(f"plainto_tsquery('{TEXT_SEARCH}', ?)" for _ in words)
    return f"(SELECT {parts} AS q) w", list(words)


class PostgresSearch(SearchIndex):
    def __init__(self, db: Database, *, dim: int, iterative_scan: bool) -> None:
        self._db = db
        self._dim = dim
        self._iterative_scan = iterative_scan

    def keyword(self, space_id: str, words: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        wanted = [w for w in dict.fromkeys(words) if w.strip()]
        if not wanted or limit < 1:
            return []
        query, query_args = any_word_query(wanted)
        where, params = filter_sql(flt)
        rows = self._db.fetch(
            f"SELECT r.id, r.space_id, ts_rank(r.body, w.q, 1) AS rank FROM {query} CROSS JOIN records r"
            f" WHERE r.space_id = ? AND r.body @@ w.q AND {where} ORDER BY rank DESC, r.seq DESC LIMIT ?",
            (*query_args, space_id, *params, limit),
        )
        return [ScoredId(r[0], float(r[2])) for r in rows if self._db.own(space_id, r[1])]

    def vector(self, space_id: str, vector: Vector, flt: RecordFilter, limit: int) -> list[ScoredId]:
        if limit < 1:
            return []
        where, params = filter_sql(flt)
        literal = vector_literal(vector)
        typed = f"vector({self._dim})"

        def nearest(conn: Any) -> list[Any]:
            # Filtered HNSW scans stop at ef_search candidates; iterative scans (pgvector 0.8)
            # go on until enough rows pass the filter, in an order fixed up below.
            conn.execute(f"SET LOCAL hnsw.ef_search = {min(max(limit * 4, 40), _EF_SEARCH_MAX)}")
            if self._iterative_scan:
                conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            rows: list[Any] = conn.execute(
                f"SELECT r.id, r.space_id, (v.embedding::{typed} <=> ?::{typed}) AS distance"
                " FROM record_vectors v JOIN records r ON r.seq = v.record_seq"
                f" WHERE v.space_id = ? AND {where} ORDER BY distance LIMIT ?",
                (literal, space_id, *params, limit),
            ).fetchall()
            return rows

        rows = self._db.read(nearest)
        found = [ScoredId(r[0], 1.0 - float(r[2])) for r in rows if self._db.own(space_id, r[1])]
        found.sort(key=lambda s: -s.score)
        return found

    def terms(self, space_id: str, terms: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        if not terms or limit < 1:
            return []
        return self._db.read(lambda c: self._by_terms(c, space_id, terms, flt, limit))

    def _by_terms(
        self, conn: Any, space_id: str, terms: Sequence[str], flt: RecordFilter, limit: int
    ) -> list[ScoredId]:
        """Records sharing exact terms with the query, each shared term weighted by its rarity (IDF)."""
        unique = sorted(set(terms))[:64]
        counted = conn.execute(
            "SELECT q.term, (SELECT COUNT(*) FROM (SELECT 1 FROM record_terms t"
            " WHERE t.space_id = ? AND t.term = q.term LIMIT ?) held) FROM unnest(?::text[]) AS q(term)",
            (space_id, TERM_FREQUENCY_CAP + 1, unique),
        ).fetchall()
        df_rows = [(term, int(df)) for term, df in counted if 0 < int(df) <= TERM_FREQUENCY_CAP]
        if not df_rows:
            return []
        size_row = conn.execute("SELECT vec_adds - vec_removes FROM spaces WHERE id = ?", (space_id,)).fetchone()
        size = max(int(size_row[0]) if size_row else 0, max(df for _, df in df_rows), 1)
        names = [term for term, _ in df_rows]
        weights = [math.log(1 + size / df) for _, df in df_rows]
        where, params = filter_sql(flt)
        rows = conn.execute(
            "SELECT r.id, r.space_id, SUM(w.weight) AS score"
            " FROM unnest(?::text[], ?::float8[]) AS w(term, weight)"
            " JOIN record_terms t ON t.term = w.term AND t.space_id = ?"
            f" JOIN records r ON r.seq = t.record_seq WHERE {where}"
            " GROUP BY r.seq ORDER BY score DESC, r.seq DESC LIMIT ?",
            (names, weights, space_id, *params, limit),
        ).fetchall()
        return [ScoredId(r[0], float(r[2])) for r in rows if self._db.own(space_id, r[1])]
