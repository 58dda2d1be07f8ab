"""The store's three searches on PostgreSQL (`PostgresSearch`): the `tsvector` keyword index, the
pgvector HNSW index, and exact terms — plus the record filter they share with listings.

Keyword ranking is BM25-shaped but not SQLite's BM25: each query word's `ts_rank` in a record,
weighted by the word's rarity in the space (BM25's IDF over the space's own document frequencies,
kept in `record_lexemes` by every insert and erasure). Raw scores differ between the backends;
recall fuses ranks, not raw scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from forethought.store.contracts import SearchIndex
from forethought.store.postgres.connection import Database
from forethought.store.postgres.driver import vector_literal
from forethought.store.sql import filters
from forethought.store.sql.vectors import read_record_vectors
from forethought.store.types import RecordFilter, RecordVectors, ScoredId, Vector

__all__ = ["TERM_FREQUENCY_CAP", "TEXT_SEARCH", "PostgresSearch", "any_word_query", "filter_sql"]

TEXT_SEARCH = "forethought"  # the text search configuration migration 1 creates
# When the words of a query occur in more records than this, the OR query keeps only the rarest
# words and an AND query goes first (as on SQLite); at most this many words of a query are searched.
POSTINGS_BUDGET = 5_000
_MAX_WORDS = 64
# ts_rank's length normalisation (0: none; 1: divided by 1 + log of the length), chosen on the
# LoCoMo tuning pair (docs/benchmarks.md).
_RANK_NORMALISATION = 0
# Exact terms (identifiers, names) held by more records of a space than this are not searched.
TERM_FREQUENCY_CAP = 2_000
# How many index candidates a filtered nearest-neighbour scan may visit (pgvector's ef_search).
_EF_SEARCH_MAX = 1_000


def filter_sql(flt: RecordFilter, alias: str = "r") -> tuple[str, list[Any]]:
    """The shared record filter over PostgreSQL's row key (`seq`)."""
    return filters.filter_sql(flt, alias, key="seq", tag_key="record_seq")


def any_word_query(words: Sequence[str], joiner: str = "||") -> tuple[str, list[str]]:
    """A FROM item `w` whose column `q` is a tsquery matching any of `words` (or, with `&&`, all of
    them): each word goes through `plainto_tsquery`, so nothing a user types is read as query syntax."""
    parts = f" {joiner} ".join(f"plainto_tsquery('{TEXT_SEARCH}', ?)" for _ in words)
    return f"(SELECT {parts} AS q) w", list(words)


class PostgresSearch(SearchIndex):
    def __init__(self, db: Database, *, dim: int) -> None:
        self._db = db
        self._dim = dim

    def keyword(self, space_id: str, words: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        wanted = [w for w in dict.fromkeys(words) if w.strip()][:_MAX_WORDS]
        if not wanted or limit < 1:
            return []
        return self._db.read(lambda c: self._ranked(c, space_id, wanted, flt, limit))

    def _ranked(self, conn: Any, space_id: str, words: list[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        """Records holding any of `words`, each word's `ts_rank` weighted by its rarity in the space
        (BM25's IDF, from the space's document frequencies in `record_lexemes`). As on SQLite, when
        the words' postings pass `POSTINGS_BUDGET`, records holding every word come first and the
        rest are looked for among the rarest words only, so common words never rank the whole space."""
        counted = conn.execute(
            f"SELECT t.w, MIN(s.df) FROM unnest(?::text[]) AS t(w)"
            f" CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('{TEXT_SEARCH}', t.w))) AS x(lexeme)"
            " JOIN record_lexemes s ON s.space_id = ? AND s.lexeme = x.lexeme GROUP BY t.w",
            (words, space_id),
        ).fetchall()
        frequency = {str(w): int(df) for w, df in counted if int(df) > 0}
        present = [w for w in words if w in frequency]
        if not present:
            return []
        size_row = conn.execute("SELECT vec_adds - vec_removes FROM spaces WHERE id = ?", (space_id,)).fetchone()
        size = max(int(size_row[0]) if size_row else 0, max(frequency.values()))
        weight = {w: math.log(1 + (size - df + 0.5) / (df + 0.5)) for w, df in frequency.items()}
        if sum(frequency[w] for w in present) <= POSTINGS_BUDGET:
            return self._matching(conn, space_id, present, "||", weight, flt, limit)
        found = self._matching(conn, space_id, present, "&&", weight, flt, limit) if len(present) > 1 else []
        if len(found) >= limit:
            return found
        rare: list[str] = []
        spent = 0
        for word in sorted(present, key=frequency.__getitem__):
            if spent + frequency[word] > POSTINGS_BUDGET:
                break
            rare.append(word)
            spent += frequency[word]
        if not rare:  # every word is common: the AND query (and the other signals) must do
            return found
        seen = {h.record_id for h in found}
        rest = [h for h in self._matching(conn, space_id, rare, "||", weight, flt, limit) if h.record_id not in seen]
        return found + rest[: limit - len(found)]

    def _matching(
        self,
        conn: Any,
        space_id: str,
        words: list[str],
        joiner: str,
        weight: dict[str, float],
        flt: RecordFilter,
        limit: int,
    ) -> list[ScoredId]:
        """Records matching the words joined by `joiner` (`||` any, `&&` all), by weighted rank."""
        weighted: list[Any] = []
        for word in words:
            weighted += [weight[word], word]
        score = " + ".join(
            f"? * ts_rank(r.body, plainto_tsquery('{TEXT_SEARCH}', ?), {_RANK_NORMALISATION})" for _ in words
        )
        query, query_args = any_word_query(words, joiner)
        where, params = filter_sql(flt)
        rows = conn.execute(
            f"SELECT r.id, r.space_id, ({score}) AS rank FROM {query} CROSS JOIN records r"
            f" WHERE r.space_id = ? AND r.body @@ w.q AND {where} ORDER BY rank DESC, r.seq DESC LIMIT ?",
            (*weighted, *query_args, space_id, *params, limit),
        ).fetchall()
        return [ScoredId(r[0], float(r[2])) for r in rows if self._db.own(space_id, r[1])]

    def vector(self, space_id: str, vector: Vector, flt: RecordFilter, limit: int) -> list[ScoredId]:
        if limit < 1:
            return []
        return self._db.read(lambda c: self._nearest(c, space_id, vector_literal(vector), flt, limit))

    def _nearest(self, conn: Any, space_id: str, literal: str, flt: RecordFilter, limit: int) -> list[ScoredId]:
        """Nearest neighbours that pass the filter. The vector index knows only the space, so ask
        it for more than needed and widen until enough pass or the whole space was considered
        (as the SQLite store does); each round is one index scan (HNSW, or the space's rows when
        the planner finds them fewer), continued past filtered rows by pgvector's iterative scan."""
        typed = f"vector({self._dim})"
        where, params = filter_sql(flt)
        want = max(limit * 4, 64)
        while True:
            conn.execute(f"SET LOCAL hnsw.ef_search = {min(want, _EF_SEARCH_MAX)}")
            conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            hits = conn.execute(
                f"SELECT v.record_seq, (v.embedding::{typed} <=> ?::{typed}) AS distance FROM record_vectors v"
                " WHERE v.space_id = ? ORDER BY distance LIMIT ?",
                (literal, space_id, want),
            ).fetchall()
            if not hits:
                return []
            distance = {int(seq): float(d) for seq, d in hits}
            rows = conn.execute(
                f"SELECT r.seq, r.id, r.space_id FROM records r WHERE r.seq = ANY(?) AND {where}",
                (list(distance), *params),
            ).fetchall()
            passed = [ScoredId(r[1], 1.0 - distance[int(r[0])]) for r in rows if self._db.own(space_id, r[2])]
            if len(passed) >= limit or len(hits) < want:
                passed.sort(key=lambda h: -h.score)
                return passed[:limit]
            want *= 4

    def record_vectors(self, space_id: str, record_ids: Sequence[str]) -> dict[str, RecordVectors]:
        return read_record_vectors(self._db, space_id, record_ids, key="seq", statement_table="record_vectors",
                                   statement_column="s.embedding::text", decode=_from_literal)  # fmt: skip

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


def _from_literal(text: str) -> Vector:
    """pgvector's text form (`[0.1,0.2,...]`) as a float32 vector."""
    return np.asarray([float(x) for x in text.strip("[]").split(",")], dtype=np.float32)
