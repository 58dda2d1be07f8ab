"""The database file as one process sees it: a connection per thread, transactions, retries,
and the isolation guard every SQLite contract module shares."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from forethought.errors import BackendError
from forethought.store.scrub import scrub_params
from forethought.store.sqlite.driver import connect, retrying, sqlite3
from forethought.store.types import Counters

__all__ = ["Database"]

log = logging.getLogger(__name__)
T = TypeVar("T")


class Database:
    """Per-thread connections to one SQLite file (or one shared in-memory database).

    `write` and `read` run a function in one transaction, retried as a whole while the file is
    busy (see `driver.retrying`); `own` is the fail-closed space check applied to every row read.
    """

    def __init__(self, target: str, counters: Counters) -> None:
        self.target = target
        self.in_memory = target == ":memory:"
        self.counters = counters
        self._local = threading.local()
        self._all_conns: list[Any] = []
        self._conns_lock = threading.Lock()
        self._closed = False

    def conn(self) -> Any:
        """The calling thread's connection, opened on first use."""
        if self._closed:
            raise BackendError("the store is closed")
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self.in_memory and self._all_conns:
                conn = self._all_conns[0]  # ":memory:" exists once; share its connection
            else:
                conn = connect(self.target)
                with self._conns_lock:
                    self._all_conns.append(conn)
            self._local.conn = conn
        return conn

    def count_retry(self) -> None:
        self.counters.lock_retries += 1

    def write(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(conn)` in one write transaction, retried as a whole while the file is busy.
        `fn` gets the connection behind the scrubbing chokepoint (`store/scrub.py`): every value
        it binds is scrubbed of secrets first."""
        conn = _Scrubbing(self.conn())

        def attempt() -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(conn)
                conn.execute("COMMIT")
                return result
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

        return retrying(attempt, counter=self.count_retry)

    def read(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(conn)` in one read transaction (a consistent snapshot)."""
        conn = self.conn()

        def attempt() -> T:
            conn.execute("BEGIN")
            try:
                return fn(conn)
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")

        return retrying(attempt, counter=self.count_retry)

    def fetch(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """Every row of one query, read in its own transaction."""
        rows: list[Any] = self.read(lambda c: c.execute(sql, args).fetchall())
        return rows

    def own(self, space_id: str, row_space: str) -> bool:
        """Fail closed: a row of another space is dropped, counted and logged."""
        if row_space == space_id:
            return True
        self.counters.foreign_rows_dropped += 1
        log.warning("dropped a row of another space from a result (isolation guard)")
        return False

    def close(self) -> None:
        with self._conns_lock:
            for conn in self._all_conns:
                with contextlib.suppress(sqlite3.Error):  # closing is best effort
                    conn.close()
            self._all_conns.clear()
        self._closed = True


class _Scrubbing:
    """A connection whose statements bind only scrubbed values (`store.scrub.scrub_params`)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self._conn.execute(sql, scrub_params(params))

    def executemany(self, sql: str, rows: Iterable[Any]) -> Any:
        return self._conn.executemany(sql, (scrub_params(r) for r in rows))

    def __getattr__(self, name: str) -> Any:  # in_transaction, total_changes, ...
        return getattr(self._conn, name)
