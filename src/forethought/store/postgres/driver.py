"""How the PostgreSQL store talks to its server: placeholders, vectors as literals, and what a
server error becomes at the store seam.

The store's SQL is written with `?` placeholders, as the SQLite store's and apps' statements are;
`placeholders` turns them into psycopg's `%s` (outside string literals and quoted names) and
doubles every literal `%`, so a statement reads the same on both backends.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import PoolTimeout

from forethought.errors import BackendError, Conflict, InvalidInput, StoreBusy
from forethought.store.types import Vector

__all__ = ["WRITE_DEADLINE_S", "first_line", "placeholders", "refuse_nul", "retrying", "vector_literal"]

log = logging.getLogger(__name__)
T = TypeVar("T")

# How long a caller may wait for a lock or a connection before StoreBusy (as on SQLite).
WRITE_DEADLINE_S = 60.0

# Transient by nature: the whole transaction is run again.
_RETRIED = (pg_errors.SerializationFailure, pg_errors.DeadlockDetected, pg_errors.LockNotAvailable)


def placeholders(sql: str) -> str:
    """`sql` with each `?` outside literals and quoted names as `%s`, and every `%` doubled."""
    out: list[str] = []
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            out.append("%%" if ch == "%" else ch)
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
            out.append(ch)
        elif ch == "?":
            out.append("%s")
        else:
            out.append("%%" if ch == "%" else ch)
    return "".join(out)


def vector_literal(vector: Vector) -> str:
    """A vector as pgvector's text form (`[0.1,0.2,...]`), exact for float32 values."""
    values = np.asarray(vector, dtype=np.float32)
    return "[" + ",".join(repr(float(x)) for x in values) + "]"


def retrying(fn: Callable[[], T], *, counter: Callable[[], None] | None = None) -> T:
    """Run `fn` (one whole transaction), retrying serialization failures and deadlocks until the
    deadline; every other server error becomes the store's own."""
    deadline = time.monotonic() + WRITE_DEADLINE_S
    delay = 0.005
    while True:
        try:
            return fn()
        except _RETRIED as exc:
            if time.monotonic() > deadline:
                raise StoreBusy(f"the database stayed contended for {WRITE_DEADLINE_S:.0f}s") from exc
            if counter is not None:
                counter()
            log.debug("transaction retried after %s", type(exc).__name__)
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.25)
        except PoolTimeout as exc:
            raise StoreBusy("no database connection became free in time") from exc
        except pg_errors.ReadOnlySqlTransaction as exc:  # a write inside `Database.read` (an app's query)
            raise InvalidInput("a query only reads; this statement writes") from exc
        except pg_errors.IntegrityError as exc:
            raise Conflict(f"the change conflicts with stored data: {first_line(exc)}") from exc
        except pg_errors.UndefinedTable as exc:
            raise BackendError(f"database error: no such table ({first_line(exc)})") from exc
        except (pg_errors.DataException, pg_errors.SyntaxErrorOrAccessRuleViolation) as exc:
            raise BackendError(f"database error: {first_line(exc)}") from exc
        except psycopg.Error as exc:
            raise BackendError(f"database error: {first_line(exc)}") from exc


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def refuse_nul(values: tuple[object, ...]) -> None:
    """PostgreSQL text cannot hold NUL characters (SQLite can): refuse them as bad input."""
    for value in values:
        if isinstance(value, str) and "\x00" in value:
            raise InvalidInput("text may not contain NUL characters")
