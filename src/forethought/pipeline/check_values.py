"""Values: a draft line that sets what a rule fixes to another value ("1 KiB chunks" →
`ChunkSize = 4096`; "rewinds at most 120 ms" → `MaxRewind = 200 * time.Millisecond`; "Rust 1.80"
→ `rust-toolchain@1.75`; "kept 90 days (30 no longer)" → `INTERVAL '30 days'`).

Slot filling reads both sides (`text.quantities`); this module decides. A line's value is about a
rule's quantity when their dimensions agree (a value with no unit takes the rule's) and the line's
key is about the quantity's subject: the key as one word (`max-age`) is in it, or the key's head
word is and so is every other word (half of them for a value with its own unit:
`client_max_body_size = 100m`), or — for a value with no key of its own (`INTERVAL '30 days'`) — two
words of the line around it are (words match when equal, one starts the other, or they share their
first six letters). Then the line goes against the rule when the value is one the rule rules out, or
when the rule fixes values for that subject and the line's value meets none of them (nor any other
value the rule fixes in that dimension: "ranked at 60 Hz, casual at 30 Hz"): an exact value (within
`TOLERANCE`; "4 KB" is 4096 or 4000, "25 MiB" only 26,214,400), at most, at least; a threshold the
line compares against must be one of the rule's values exactly; a version must match the rule's as
far as the rule spells it ("Node 20" allows `node:20.11`), or reach it for "1.80+".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from forethought.domain import Record
from forethought.text.quantities import LineValue, Quantity, line_values, rule_quantities

__all__ = ["MAX_LINE_CHARS", "TOLERANCE", "ValueConflict", "value_conflicts"]

TOLERANCE = 0.01  # relative, for rounding: "1 MB" is 1,000,000 or 1,048,576 by its two readings, not by slack
MAX_LINE_CHARS = 400  # longer lines (minified code, data) are not read for settings


@dataclass(frozen=True)
class ValueConflict:
    """One draft line setting a value one record fixes otherwise."""

    record: Record
    line: str
    found: str  # the value as the line writes it
    expected: str  # the rule's value as the rule writes it
    ruled_out: bool


def _like(a: str, b: str) -> bool:
    """One word for matching: equal, one a prefix of the other (`char`, `characters`), or a long
    common start (`retention`, `retained`)."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return (len(short) >= 4 and long_.startswith(short)) or (len(short) >= 6 and short[:6] == long_[:6])


def _matched(words: frozenset[str], subject: frozenset[str]) -> set[str]:
    return {w for w in words if w in subject or any(_like(w, s) for s in subject)}


def _about(q: Quantity, v: LineValue) -> bool:
    if q.dimension == "version" or v.dimension == "version":
        return q.dimension == v.dimension and bool(_matched(v.key, q.subject))
    if v.dimension is not None and v.dimension != q.dimension and q.dimension != "plain":
        return False  # a bare number in the rule ("at most 30") is compared as the line writes it
    if v.compounds & q.subject:
        return True
    matched = _matched(v.key, q.subject)
    if v.context:  # the words around the value, not a key of its own: two shared words (or the one the rule has)
        return len(matched) >= max(1, min(2, len(q.subject)))  # a value with no subject ("(20 minutes)") ties nothing
    head = v.head is None or v.head in matched  # the key's head word: `client_max_body_size` is about a body
    return (
        bool(v.key) and head and (matched == set(v.key) or (v.dimension is not None and 2 * len(matched) >= len(v.key)))
    )


def _value(q: Quantity, v: LineValue) -> float:
    if q.dimension == "plain" and v.raw is not None:
        return v.raw
    if q.dimension == "percent" and v.dimension is None and 0 < v.value <= 1 < q.value:
        return v.value * 100  # `soc < 0.25` against "below 30%"
    return v.value


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b), 1e-12)


def _same(x: float, q: Quantity) -> bool:
    return _close(x, q.value) or (q.decimal is not None and _close(x, q.decimal))


def _accepts(q: Quantity, v: LineValue) -> bool:
    if q.dimension == "version":
        if q.bound == "min":
            return v.version >= q.version
        return v.version[: len(q.version)] == q.version
    x = _value(q, v)
    if q.bound == "exact" or v.threshold:
        return _same(x, q)
    if q.bound == "max":
        return x <= max(q.value, q.decimal or 0.0) * (1 + TOLERANCE)
    return x >= min(q.value, q.decimal or q.value) * (1 - TOLERANCE)


def _conflict(quantities: Sequence[Quantity], v: LineValue) -> tuple[Quantity, bool] | None:
    about = [q for q in quantities if _about(q, v)]
    for q in about:
        if q.ruled_out and (_accepts(q, v) if q.dimension == "version" else _same(_value(q, v), q)):
            return q, True
    fixed = [q for q in about if not q.ruled_out]
    # "ranked at 60 Hz and casual at 30 Hz": the rule's other values of that dimension are allowed too.
    dimensions = {q.dimension for q in about}
    allowed = [q for q in quantities if not q.ruled_out and q.dimension in dimensions]
    allowed = [q for q in allowed if q.dimension != "version" or _matched(v.key, q.subject)]
    if fixed and not any(_accepts(q, v) for q in [*fixed, *allowed]):
        return fixed[0], False
    return None


def value_conflicts(draft: str, records: Iterable[Record]) -> list[ValueConflict]:
    """Every (record, line) where a line of `draft` sets a value the record fixes otherwise."""
    fixing = [(r, qs) for r in records if (qs := rule_quantities(r.statement))]
    if not fixing:
        return []
    lines = [(line.strip(), values) for line in draft.splitlines()
             if len(line) <= MAX_LINE_CHARS and (values := line_values(line))]  # fmt: skip
    found: list[ValueConflict] = []
    for record, quantities in fixing:
        for line, values in lines:
            for v in values:
                hit = _conflict(quantities, v)
                if hit is not None:
                    found.append(ValueConflict(record, line, v.text.strip(), hit[0].text, hit[1]))
                    break
    return found
