"""Keyset pages of a space's rows, newest first (SQL every backend runs)."""

from __future__ import annotations

from typing import Any

__all__ = ["newest_first"]


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
