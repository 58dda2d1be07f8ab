"""What the blind-set scorers of `bench.quality` share: text matching, label files, import.

Matching is by normalised substrings (case folded, whitespace collapsed, outer punctuation cut),
either way round, as the evaluation guide defines it. The lenient match of the bug-fix set is by
content words: a text covers a statement when it holds at least `LENIENT_SHARE` of the
statement's content words (3+ letters, not in `_STOP`, plural/-ed/-ing endings cut), and the
statement has at least two of them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from forethought import Forethought, Scope
from forethought.domain import Record, Status, Turn
from forethought.domain.times import parse_time
from forethought.pipeline.transcripts import parse_transcript, started_at

LENIENT_SHARE = 0.6
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    str.split(
        "the and for with that this from into our their your its was were are is be been have has had not "
        "but all any can could should would will must never always only also just than then them they you "
        "use used using when what which who why how one two per via over under out off about after before"
    )
)


def norm(text: str) -> str:
    return _SPACE.sub(" ", text.casefold()).strip(" .,;:!?\"'`")


def overlaps(a: str, b: str) -> bool:
    x, y = norm(a), norm(b)
    return bool(x) and bool(y) and (x in y or y in x)


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.casefold()) if len(w) >= 3 and w not in _STOP}


def covers(text: str, statement: str) -> bool:
    """`text` holds most of `statement`'s content words (the lenient match)."""
    wanted = content_words(statement)
    return len(wanted) >= 2 and len(wanted & content_words(text)) >= LENIENT_SHARE * len(wanted)


def texts_of(record: Record) -> list[str]:
    """What a record says: its statement and every evidence quote."""
    return [record.statement, *(e.quote for e in record.evidence)]


def quotes_overlap(record: Record, quotes: Iterable[str]) -> bool:
    """One of the record's evidence quotes (or its statement) overlaps one of `quotes`."""
    mine = texts_of(record)
    return any(overlaps(m, q) for q in quotes for m in mine)


def all_records(memory: Forethought, scope: Scope, statuses: Sequence[Status] = (Status.ACTIVE,)) -> list[Record]:
    if scope.existing() is None:
        return []
    return memory.list_records(scope, statuses=statuses, limit=100_000)


def dated(turns: list[Turn], when: str | datetime | None) -> list[Turn]:
    """The turns, each dated `when` if the transcript carries no time at all (so that what is
    remembered is dated when the session happened, not when it was imported)."""
    if when is None or started_at(turns) is not None:
        return turns
    at = parse_time(when, field="started_at")
    return [t.model_copy(update={"occurred_at": at}) for t in turns]


def read_turns(path: Path, *, human: str | None = None, when: str | None = None) -> list[Turn]:
    return dated(parse_transcript(path.read_bytes(), human=human), when)


@dataclass(frozen=True)
class Row:
    """One line of the printed table."""

    app: str
    metric: str
    blind: float | int | None
    n: int | None = None
