"""The store's three searches on SQLite (`SQLiteSearch`), the SQL behind them, and the record
filter they share with listings."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from forethought.store.contracts import SearchIndex
from forethought.store.sql.filters import filter_sql
from forethought.store.sql.vectors import read_record_vectors
from forethought.store.sqlite.connection import Database
from forethought.store.sqlite.vector_cache import VectorCache, decode_vector
from forethought.store.types import RecordFilter, RecordVectors, ScoredId, Vector

__all__ = [
    "EXACT_FILTERED",
    "POSTINGS_BUDGET",
    "TERM_FREQUENCY_CAP",
    "SQLiteSearch",
    "by_terms",
    "filter_sql",
    "keyword",
    "nearest",
]

Own = Callable[[str, str], bool]
# A filter this selective (at most this many records of the space pass it) is searched exactly over
# the records that pass, read with their vectors, instead of widening the index search until
# enough of its neighbours pass (a recall of a space's few retired records or failed attempts).
EXACT_FILTERED = 1_000


class SQLiteSearch(SearchIndex):
    """FTS5 BM25, the per-space vector cache, and exact terms; every hit's space is checked."""

    def __init__(self, db: Database, vectors: VectorCache) -> None:
        self._db = db
        self._vectors = vectors

    def keyword(self, space_id: str, words: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        if not words:
            return []
        return self._db.read(lambda c: keyword(c, space_id, words, flt, limit, self._db.own))

    def record_vectors(self, space_id: str, record_ids: Sequence[str]) -> dict[str, RecordVectors]:
        return read_record_vectors(self._db, space_id, record_ids, key="rowid", statement_table="vectors",
                                   statement_column="s.vec", decode=decode_vector)  # fmt: skip

    def vector(self, space_id: str, vector: Vector, flt: RecordFilter, limit: int) -> list[ScoredId]:
        found = self._db.read(lambda c: nearest(c, self._vectors, space_id, vector, flt, limit, self._db.own))
        self._vectors.maybe_snapshot(space_id, lambda: self._removes(space_id))
        return found

    def terms(self, space_id: str, terms: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        if not terms:
            return []
        return self._db.read(lambda c: by_terms(c, space_id, terms, flt, limit, self._db.own))

    def _removes(self, space_id: str) -> int | None:
        rows = self._db.fetch("SELECT vec_removes FROM spaces WHERE id = ?", (space_id,))
        return int(rows[0][0]) if rows else None


# BM25 scoring costs about a microsecond per matching row; looking up how many rows hold a word
# costs under a millisecond (ad-hoc timings on the 2-core machine, not a bench). When the
# words of a query occur in more rows than this, the OR query keeps only the rarest words (common
# ones barely move BM25) and an AND query goes first.
POSTINGS_BUDGET = 5_000
# Exact terms (identifiers, names) held by more records of a space than this are not searched.
TERM_FREQUENCY_CAP = 2_000


def _stems(conn: Any, words: Sequence[str]) -> dict[str, str]:
    """Each word as the index stores it (the FTS tokenizer's stem), via a scratch FTS table."""
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5"
        " (w, tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_stems USING fts5vocab(temp, query_words, instance)")
    conn.execute("DELETE FROM temp.query_words")
    conn.executemany("INSERT INTO temp.query_words (rowid, w) VALUES (?, ?)", list(enumerate(words)))
    stems: dict[str, str] = {}
    for row, term in conn.execute("SELECT doc, term FROM temp.query_stems"):
        stems.setdefault(words[row], term)
    conn.execute("DELETE FROM temp.query_words")
    return stems


def _document_frequency(conn: Any, stem: str) -> int:
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.index_terms USING fts5vocab(main, records_fts, row)")
    row = conn.execute("SELECT doc FROM temp.index_terms WHERE term = ?", (stem,)).fetchone()
    return int(row[0]) if row else 0


def _match(words: Sequence[str], joiner: str) -> str:
    # Every word is quoted, so nothing a user types is read as FTS syntax.
    return f" {joiner} ".join('"' + w.replace('"', '""') + '"' for w in words)


def _bm25(conn: Any, space_id: str, expression: str, flt: RecordFilter, limit: int, own: Own) -> list[ScoredId]:
    where, params = filter_sql(flt)
    rows = conn.execute(
        # CROSS JOIN pins the join order: the full-text match drives, each match looks up its row.
        # Left to itself the planner scans the space's records and runs the MATCH once per row.
        "SELECT r.id, r.space_id, bm25(records_fts) AS rank FROM records_fts"
        " CROSS JOIN records r ON r.rowid = records_fts.rowid"
        f" WHERE records_fts MATCH ? AND r.space_id = ? AND {where}"
        " ORDER BY rank LIMIT ?",
        (expression, space_id, *params, limit),
    ).fetchall()
    # bm25() is lower-is-better; flip it so every signal reads higher-is-better.
    return [ScoredId(r[0], -float(r[2])) for r in rows if own(space_id, r[1])]


def keyword(conn: Any, space_id: str, words: Sequence[str], flt: RecordFilter, limit: int, own: Own) -> list[ScoredId]:
    stems = _stems(conn, list(dict.fromkeys(words)))
    frequency = {word: _document_frequency(conn, stem) for word, stem in stems.items()}
    present = [w for w in stems if frequency[w] > 0]
    if not present:
        return []
    if sum(frequency[w] for w in present) <= POSTINGS_BUDGET:
        return _bm25(conn, space_id, _match(present, "OR"), flt, limit, own)
    found = _bm25(conn, space_id, _match(present, "AND"), flt, limit, own) if len(present) > 1 else []
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
    seen = {s.record_id for s in found}
    rest = [s for s in _bm25(conn, space_id, _match(rare, "OR"), flt, limit, own) if s.record_id not in seen]
    # Rows with every word stay ahead of rows with only the rare ones, whatever their raw scores.
    return found + rest[: limit - len(found)]


def nearest(
    conn: Any, cache: VectorCache, space_id: str, vector: Vector, flt: RecordFilter, limit: int, own: Own
) -> list[ScoredId]:
    """Nearest neighbours that pass the filter. The index knows nothing of status or kind, so ask
    it for more than needed and widen until enough pass or the whole space was considered; when
    the first pass falls short and at most `EXACT_FILTERED` records pass the filter, score those
    exactly instead."""
    query = np.ascontiguousarray(vector, dtype=np.float32)
    where, params = filter_sql(flt)
    want = max(limit * 4, 64)
    first = True
    while True:
        hits, size = cache.search(conn, space_id, query, want)
        if not hits:
            return []
        by_rowid = dict(hits)
        passed: list[ScoredId] = []
        keys = list(by_rowid)
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            rows = conn.execute(
                f"SELECT r.rowid, r.id, r.space_id FROM records r WHERE r.rowid IN ({', '.join('?' * len(chunk))})"
                f" AND {where}",
                (*chunk, *params),
            ).fetchall()
            passed.extend(ScoredId(r[1], by_rowid[r[0]]) for r in rows if own(space_id, r[2]))
        if len(passed) >= limit or want >= size:
            passed.sort(key=lambda s: -s.score)
            return passed[:limit]
        if first and _passing(conn, space_id, where, params) <= EXACT_FILTERED:
            return _exact(conn, space_id, query, where, params, limit, own)
        first = False
        want *= 4


def _passing(conn: Any, space_id: str, where: str, params: Sequence[Any]) -> int:
    """How many of the space's records pass the filter, counted up to EXACT_FILTERED + 1."""
    row = conn.execute(
        f"SELECT COUNT(*) FROM (SELECT 1 FROM records r WHERE r.space_id = ? AND {where} LIMIT ?)",
        (space_id, *params, EXACT_FILTERED + 1),
    ).fetchone()
    return int(row[0])


def _exact(
    conn: Any, space_id: str, query: Vector, where: str, params: Sequence[Any], limit: int, own: Own
) -> list[ScoredId]:
    """The nearest of the records passing the filter, each scored against its stored vector."""
    rows = conn.execute(
        "SELECT r.id, r.space_id, v.vec FROM records r JOIN vectors v ON v.record_rowid = r.rowid"
        f" WHERE r.space_id = ? AND {where}",
        (space_id, *params),
    ).fetchall()
    kept = [(str(r[0]), bytes(r[2])) for r in rows if own(space_id, r[1])]
    if not kept:
        return []
    matrix = np.frombuffer(b"".join(blob for _, blob in kept), dtype="<f2").reshape(len(kept), -1).astype(np.float32)
    scores = np.clip(np.einsum("ij,j->i", matrix, query), -1.0, 1.0)
    order = np.argsort(-scores, kind="stable")[:limit]
    return [ScoredId(kept[i][0], float(scores[i])) for i in order]


def by_terms(conn: Any, space_id: str, terms: Sequence[str], flt: RecordFilter, limit: int, own: Own) -> list[ScoredId]:
    """Records sharing exact terms with the query, each shared term weighted by its rarity (IDF),
    so a name that appears everywhere in a space counts for little and an identifier for a lot."""
    unique = sorted(set(terms))[:64]
    size_row = conn.execute("SELECT vec_adds - vec_removes FROM spaces WHERE id = ?", (space_id,)).fetchone()
    # Counting stops past the cap: a term held by thousands of records identifies nothing, and
    # leaving it out keeps the work bounded however large the space grows.
    df_rows = [
        (term, df)
        for term in unique
        if 0
        < (
            df := conn.execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM record_terms WHERE space_id = ? AND term = ? LIMIT ?)",
                (space_id, term, TERM_FREQUENCY_CAP + 1),
            ).fetchone()[0]
        )
        <= TERM_FREQUENCY_CAP
    ]
    if not df_rows:
        return []
    size = max(int(size_row[0]) if size_row else 0, max(df for _, df in df_rows), 1)
    idf = {term: math.log(1 + size / df) for term, df in df_rows}
    where, params = filter_sql(flt)
    weights = " ".join(f"WHEN ? THEN {w!r}" for w in idf.values())
    rows = conn.execute(
        f"SELECT r.id, r.space_id, SUM(CASE t.term {weights} ELSE 0 END) AS score"
        " FROM record_terms t JOIN records r ON r.rowid = t.record_rowid"
        f" WHERE t.space_id = ? AND t.term IN ({', '.join('?' * len(idf))}) AND {where}"
        " GROUP BY r.rowid ORDER BY score DESC, r.rowid DESC LIMIT ?",
        (*idf.keys(), space_id, *idf.keys(), *params, limit),
    ).fetchall()
    return [ScoredId(r[0], float(r[2])) for r in rows if own(space_id, r[1])]
