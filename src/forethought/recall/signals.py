"""Signals computed over the candidate pool, after the searches: they reorder what the searches
found and never add a record. Each returns (record id, raw score) pairs, best first."""

from __future__ import annotations

import math
from collections.abc import Sequence

from forethought.domain import Record
from forethought.recall.dates import Period
from forethought.text.identifiers import focus_in

__all__ = ["by_period", "by_recency", "by_statement"]

Scored = list[tuple[str, float]]

# The statement signal reads this much of each statement: enough for any fact or note, and the
# opening of a long document (where it says what it is about), at a bounded cost per recall.
STATEMENT_CHARS = 2_000


def by_recency(records: Sequence[Record]) -> Scored:
    """Newest first (raw score: the POSIX timestamp of `occurred_at`)."""
    newest = sorted(records, key=lambda r: (r.occurred_at, r.id), reverse=True)
    return [(r.id, r.occurred_at.timestamp()) for r in newest]


def by_period(periods: Sequence[Period], records: Sequence[Record]) -> Scored:
    """The records that occurred in a period the query names, all tied (raw score 1): a question
    about what happened in October is most likely answered by what was recorded then."""
    return [(r.id, 1.0) for r in records if any(p.contains(r.occurred_at) for p in periods)]


def by_statement(focus: frozenset[str], records: Sequence[Record]) -> Scored:
    """How much of the query a record's own statement says, as opposed to its context.

    The keyword index and the embedding see statement and context together, so a record whose
    *neighbour* answers the query ranks as high as the answer itself. This signal reads only the
    statement: the query's stemmed keywords (`focus`) it contains, each weighted by its rarity in
    the pool (a word every candidate shares, such as the name a question is about, counts for
    little). Records whose statement holds none of them are left out. Only the first
    `STATEMENT_CHARS` characters are read.
    """
    if not focus or not records:
        return []
    found = [focus_in(focus, r.statement[:STATEMENT_CHARS]) for r in records]
    df: dict[str, int] = {}
    for present in found:
        for word in present:
            df[word] = df.get(word, 0) + 1
    weight = {word: math.log(1 + len(records) / n) for word, n in df.items()}
    scored = [(r.id, round(sum(weight[w] for w in present), 9)) for r, present in zip(records, found, strict=True)]
    return sorted((item for item in scored if item[1] > 0), key=lambda item: (-item[1], item[0]))
