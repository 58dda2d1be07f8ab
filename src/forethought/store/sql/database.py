"""The part of a SQL backend's database object that the shared contract modules use."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["SqlDatabase"]

T = TypeVar("T")


class SqlDatabase(Protocol):
    """`write` and `read` run a function in one transaction, given a connection whose `execute`
    and `executemany` take `?` placeholders (a write binds only scrubbed values); `own` is the
    fail-closed space check applied to every row read."""

    def write(self, fn: Callable[[Any], T]) -> T: ...

    def read(self, fn: Callable[[Any], T]) -> T: ...

    def fetch(self, sql: str, args: Sequence[Any]) -> list[Any]: ...

    def own(self, space_id: str, row_space: str) -> bool: ...
