"""The part of a SQL backend's database object that the shared contract modules use."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from forethought.store.types import Counters

__all__ = ["DatabaseBase", "SqlDatabase", "own_row"]

T = TypeVar("T")
log = logging.getLogger(__name__)


class SqlDatabase(Protocol):
    """`write` and `read` run a function in one transaction, given a connection whose `execute`
    and `executemany` take `?` placeholders (a write binds only scrubbed values); `own` is the
    fail-closed space check applied to every row read."""

    def write(self, fn: Callable[[Any], T]) -> T: ...

    def read(self, fn: Callable[[Any], T]) -> T: ...

    def fetch(self, sql: str, args: Sequence[Any]) -> list[Any]: ...

    def own(self, space_id: str, row_space: str) -> bool: ...


class DatabaseBase(ABC):
    """What both backends' database objects share on top of their own `read`: one query in its
    own transaction, and the fail-closed space check."""

    counters: Counters

    @abstractmethod
    def read(self, fn: Callable[[Any], T]) -> T: ...

    def fetch(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """Every row of one query, read in its own transaction."""
        rows: list[Any] = self.read(lambda c: c.execute(sql, args).fetchall())
        return rows

    def own(self, space_id: str, row_space: str) -> bool:
        """Fail closed: a row of another space is dropped, counted and logged."""
        return own_row(self.counters, space_id, row_space)


def own_row(counters: Counters, space_id: str, row_space: str) -> bool:
    """Fail closed: a row of another space is dropped, counted and logged (every backend's `own`)."""
    if row_space == space_id:
        return True
    counters.foreign_rows_dropped += 1
    log.warning("dropped a row of another space from a result (isolation guard)")
    return False
