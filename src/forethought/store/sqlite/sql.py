"""Small SQL-building helpers shared by the SQLite modules (placeholders, chunks, keyset pages)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["chunks", "marks", "newest_first", "prefixed"]


def marks(n: int) -> str:
    """`n` comma-separated placeholders."""
    return ", ".join("?" * n)


def prefixed(columns: str, alias: str = "r") -> str:
    """A column list with every column qualified by `alias`."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    """`items` in slices of at most `size` (SQLite bounds the parameters of one statement)."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def newest_first(
    table: str, columns: str, space_id: str, limit: int, before_id: str | None, *, kind: str | None = None
) -> tuple[str, list[Any]]:
    """A space's rows newest first; with `before_id` (a keyset cursor) only older ones; with
    `kind`, only rows of that kind (a table with a `kind` column). A cursor naming a row of
    another space matches nothing."""
    sql = f"SELECT {columns} FROM {table} WHERE space_id = ?"
    args: list[Any] = [space_id]
    if kind is not None:
        sql += " AND kind = ?"
        args.append(kind)
    if before_id is not None:
        sql += f" AND (created_at, id) < (SELECT created_at, id FROM {table} WHERE id = ? AND space_id = ?)"
        args += [before_id, space_id]
    return sql + " ORDER BY created_at DESC, id DESC LIMIT ?", [*args, limit]
