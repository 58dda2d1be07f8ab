"""The PostgreSQL database as one process sees it: a pool of connections, one transaction per
`write` or `read`, retries, and the isolation guard every PostgreSQL contract module shares."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool

from forethought.errors import BackendError
from forethought.store.postgres.driver import WRITE_DEADLINE_S, first_line, placeholders, refuse_nul, retrying
from forethought.store.scrub import scrub_params
from forethought.store.sql.database import DatabaseBase
from forethought.store.types import Counters
from forethought.targets import display_target

__all__ = ["Database", "Statements"]

log = logging.getLogger(__name__)
T = TypeVar("T")

CONNECT_TIMEOUT_S = 10


class Database(DatabaseBase):
    """A connection pool on one PostgreSQL database.

    `write` runs a function in one read-committed transaction whose statements bind only scrubbed
    values; `read` runs one in a read-only repeatable-read transaction (a consistent snapshot);
    both are retried as a whole on serialization failures and deadlocks. `own` is the fail-closed
    space check applied to every row read.
    """

    def __init__(self, dsn: str, counters: Counters, *, max_connections: int = 8) -> None:
        self.counters = counters
        self._closed = False
        try:  # one direct attempt first: a wrong URL fails now, with the server's reason
            psycopg.connect(dsn, connect_timeout=CONNECT_TIMEOUT_S).close()
        except psycopg.Error as exc:
            raise BackendError(f"could not connect to PostgreSQL at {_safe(dsn)}: {first_line(exc)}") from exc
        self.pool = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_connections,
            timeout=WRITE_DEADLINE_S,
            kwargs={"autocommit": False, "application_name": "forethought", "connect_timeout": CONNECT_TIMEOUT_S},
            open=False,
        )
        try:
            self.pool.open(wait=True, timeout=30)
        except Exception as exc:  # psycopg_pool raises PoolTimeout with the server's reason logged
            self.pool.close()
            raise BackendError(f"could not connect to PostgreSQL at {_safe(dsn)}: {exc}") from exc

    def count_retry(self) -> None:
        self.counters.lock_retries += 1

    def write(self, fn: Callable[[Statements], T]) -> T:
        def attempt() -> T:
            with self._connection() as conn, conn.transaction():
                return fn(Statements(conn, scrub=True))

        return retrying(attempt, counter=self.count_retry)

    def read(self, fn: Callable[[Statements], T]) -> T:
        def attempt() -> T:
            with self._connection() as conn, conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                return fn(Statements(conn, scrub=False))

        return retrying(attempt, counter=self.count_retry)

    def _connection(self) -> Any:
        if self._closed:
            raise BackendError("the store is closed")
        return self.pool.connection()

    def close(self) -> None:
        self._closed = True
        self.pool.close()


class Statements:
    """One transaction's connection, speaking the store's `?` SQL; on a write every bound value
    passes the scrubbing chokepoint (`store.scrub.scrub_params`) first."""

    def __init__(self, conn: psycopg.Connection[Any], *, scrub: bool) -> None:
        self.conn = conn
        self._scrub = scrub

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        return self.conn.execute(placeholders(sql), self._bound(params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        """Run `sql` once per row; returns the rows changed in all."""
        values = [self._bound(r) for r in rows]
        if not values:
            return 0
        with self.conn.cursor() as cur:
            cur.executemany(placeholders(sql), values)
            return int(cur.rowcount)

    def _bound(self, params: Sequence[Any]) -> tuple[Any, ...]:
        values = tuple(scrub_params(params) if self._scrub else params)
        refuse_nul(values)
        return values


def _safe(dsn: str) -> str:
    """The URL without its password, for messages."""
    return display_target(dsn)
