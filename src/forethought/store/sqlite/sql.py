"""Small SQL-building helpers shared by the SQLite modules (placeholders, chunks)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from forethought.store.sql.filters import marks

__all__ = ["chunks", "marks", "prefixed"]


def prefixed(columns: str, alias: str = "r") -> str:
    """A column list with every column qualified by `alias`."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    """`items` in slices of at most `size` (SQLite bounds the parameters of one statement)."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
