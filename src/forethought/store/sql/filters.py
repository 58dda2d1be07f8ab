"""The record filter every search and listing shares, as SQL both backends run, and placeholders."""

from __future__ import annotations

from typing import Any

from forethought.domain.times import format_time
from forethought.store.types import RecordFilter

__all__ = ["filter_sql", "marks"]


def marks(n: int) -> str:
    """`n` comma-separated placeholders."""
    return ", ".join("?" * n)


def filter_sql(
    flt: RecordFilter, alias: str = "r", *, key: str = "rowid", tag_key: str = "record_rowid"
) -> tuple[str, list[Any]]:
    """A WHERE fragment (over records aliased `alias`) and its parameters. `key` is the records'
    row key and `tag_key` the tag table's column for it (SQLite: rowid; PostgreSQL: seq)."""
    clauses: list[str] = []
    params: list[Any] = []
    if flt.statuses:
        clauses.append(f"{alias}.status IN ({marks(len(flt.statuses))})")
        params.extend(s.value for s in flt.statuses)
    if flt.kinds:
        clauses.append(f"{alias}.kind IN ({marks(len(flt.kinds))})")
        params.extend(flt.kinds)
    for tag in flt.tags:
        clauses.append(f"EXISTS (SELECT 1 FROM record_tags t WHERE t.{tag_key} = {alias}.{key} AND t.tag = ?)")
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
    return (" AND ".join(clauses) or "1 = 1"), params
