"""The database file as one process sees it: a connection per thread, transactions, retries,
checkpoints, and the isolation guard every SQLite contract module shares.

Checkpoints matter for erasure: deleted text lingers in the WAL, and in the main file's pages
until the WAL's zeroed copies are written back. A reader holding an older snapshot stops a
TRUNCATE checkpoint from finishing — SQLite reports it busy rather than failing — so `checkpoint`
retries a bounded number of times with backoff and says whether it got through. When it did not,
`purge_pending` stays set and every later write tries once more (without waiting), so the bytes
go as soon as the reader lets go. The database remembers it too (a `meta` row), so another
process — the next CLI command, a server started later — finds the erasure unfinished and
finishes it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from forethought.errors import BackendError
from forethought.store.scrub import scrub_params
from forethought.store.sql.database import DatabaseBase
from forethought.store.sqlite.driver import BUSY_TIMEOUT_MS, connect, is_busy, retrying, sqlite3
from forethought.store.types import Counters

__all__ = ["Database"]

log = logging.getLogger(__name__)
T = TypeVar("T")

CHECKPOINT_ATTEMPTS = 8  # with the backoff below: about two seconds before giving up
_CHECKPOINT_WAIT_MS = 50  # how long one attempt lets SQLite wait for readers
_FIRST_BACKOFF_S = 0.02
_MAX_BACKOFF_S = 0.5
PURGE_MARK = "erasure_pending"  # the meta row that outlives the process


class Database(DatabaseBase):
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
        self._checkpoint_lock = threading.Lock()
        # An erasure's checkpoint did not finish: erased bytes may remain in the file or its WAL.
        self.purge_pending = False
        self._purge_marked = False  # whether the meta row says so too

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

        result = retrying(attempt, counter=self.count_retry)
        if self.purge_pending:
            self._finish_purge_quietly()
        return result

    def checkpoint(self, *, attempts: int | None = None, wait_ms: int = _CHECKPOINT_WAIT_MS) -> bool:
        """Write the WAL back into the database file and truncate it; retried with backoff while
        readers keep it busy (`CHECKPOINT_ATTEMPTS` times unless told). True when it got through
        (and `purge_pending` is cleared)."""
        if self.in_memory:  # no file, no WAL: nothing can linger
            self.purge_pending = False
            return True
        with self._checkpoint_lock:
            return self._checkpoint(attempts or CHECKPOINT_ATTEMPTS, wait_ms)

    def _checkpoint(self, attempts: int, wait_ms: int) -> bool:
        conn = self.conn()
        delay = _FIRST_BACKOFF_S
        for attempt in range(attempts):
            if attempt:
                time.sleep(delay)
                delay = min(delay * 2, _MAX_BACKOFF_S)
            if _truncate_wal(conn, wait_ms):
                self._cleared()
                return True
            self.count_retry()
        return False

    def mark_purge_pending(self) -> None:
        """Remember in the database itself that an erasure is unfinished."""
        self.purge_pending = True
        self._purge_marked = True
        self.write(lambda c: c.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", (PURGE_MARK,)))

    def purge_marked(self) -> bool:
        """Whether this process or any other left an erasure unfinished (adopting it if so)."""
        if not self.purge_pending and self.fetch("SELECT 1 FROM meta WHERE key = ?", (PURGE_MARK,)):
            self.purge_pending = self._purge_marked = True
        return self.purge_pending

    def _cleared(self) -> None:
        self.purge_pending = False
        if self._purge_marked:
            self._purge_marked = False
            self.write(lambda c: c.execute("DELETE FROM meta WHERE key = ?", (PURGE_MARK,)))

    def _finish_purge_quietly(self) -> None:
        """After a write, while an erasure is unfinished: one attempt that waits for nobody."""
        if not self._checkpoint_lock.acquire(blocking=False):
            return  # another thread is at it
        try:
            if self._checkpoint(1, 0):
                log.info("the checkpoint an erasure left pending has completed")
        except BackendError:  # the write itself succeeded; the next one tries again
            log.warning("a pending checkpoint failed again", exc_info=True)
        finally:
            self._checkpoint_lock.release()

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


def _truncate_wal(conn: Any, wait_ms: int) -> bool:
    """One TRUNCATE checkpoint: True when every WAL frame is in the file and the WAL is empty.
    SQLite answers a checkpoint blocked by readers with busy=1 (not an error), or with "locked"."""
    conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
    try:
        row = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            return False
        raise BackendError(f"database error: {exc}") from exc
    finally:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return row is not None and int(row[0]) == 0
