"""Query analysis: what recall reads from a query (terms, keywords, calendar dates, focus words)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from forethought.recall.dates import Period, read_periods
from forethought.text.identifiers import identifier_parts, identifiers, terms
from forethought.text.words import STOPWORDS, stem, words

__all__ = ["QueryAnalysis", "analyze"]


@dataclass(frozen=True)
class QueryAnalysis:
    """What recall reads from a query."""

    terms: tuple[str, ...]  # identifiers and names, for exact matching
    keywords: tuple[str, ...]  # content words and identifier parts, lower-cased
    periods: tuple[Period, ...] = ()  # calendar dates the query names
    # Keywords outside those dates, stemmed: what a record's own statement should say.
    focus: frozenset[str] = frozenset()


def _keywords(text: str) -> list[str]:
    tokens: list[str] = []
    for word in words(text):
        if word not in STOPWORDS and (len(word) > 1 or word.isdigit()):
            tokens.append(word)
    for ident in identifiers(text):
        tokens.extend(p for p in identifier_parts(ident) if p not in STOPWORDS)
    return list(dict.fromkeys(t for t in tokens if t))


@lru_cache(maxsize=256)
def analyze(query: str) -> QueryAnalysis:
    """What recall reads from `query` (pure, so kept: a check recalls for each file's text twice,
    once for failed approaches alone)."""
    keywords = _keywords(query)[:64]
    dates, rest = read_periods(query)
    return QueryAnalysis(
        terms=tuple(terms(query)),
        keywords=tuple(keywords),
        periods=tuple(dates),
        focus=frozenset(stem(k) for k in _keywords(rest)),
    )
