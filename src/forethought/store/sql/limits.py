"""Token buckets (SQLite and PostgreSQL): one row a name, spent by one upsert that reads and writes
the bucket in a single statement — atomic on both backends (SQLite inside its write transaction,
PostgreSQL by the row lock `ON CONFLICT ... DO UPDATE` takes), one round trip for the request.

A row keeps its own rate and burst, so pruning can tell a bucket that has filled up again (the same
as no bucket) from one still spent, whichever limiter made it."""

from __future__ import annotations

import math
from typing import Any

from forethought.store.contracts.limits import LimitStore, Verdict
from forethought.store.sql.database import SqlDatabase

__all__ = ["SqlLimits"]

_ELAPSED = "(CASE WHEN excluded.at > b.at THEN excluded.at - b.at ELSE 0 END)"
_GROWN = f"(b.tokens + {_ELAPSED} * excluded.rate)"
_REFILLED = f"(CASE WHEN {_GROWN} >= excluded.burst THEN excluded.burst ELSE {_GROWN} END)"
_TAKE = (
    "INSERT INTO rate_buckets AS b (name, tokens, at, rate, burst, granted) VALUES (?, ?, ?, ?, ?, 1)"
    " ON CONFLICT (name) DO UPDATE SET"
    f" tokens = CASE WHEN {_REFILLED} >= 1 THEN {_REFILLED} - 1 ELSE {_REFILLED} END,"
    f" granted = CASE WHEN {_REFILLED} >= 1 THEN 1 ELSE 0 END,"
    " at = CASE WHEN excluded.at > b.at THEN excluded.at ELSE b.at END,"
    " rate = excluded.rate, burst = excluded.burst"
    " RETURNING tokens, granted"
)
_FULL = "tokens + (CASE WHEN ? > at THEN ? - at ELSE 0 END) * rate >= burst"


def _refusal(tokens: float, rate: float) -> Verdict:
    return Verdict(False, max(1, math.ceil((1.0 - tokens) / rate)))


class SqlLimits(LimitStore):
    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    def take(self, name: str, rate: float, burst: int, now: float) -> Verdict:
        if rate <= 0:
            return Verdict(True)

        def write(conn: Any) -> tuple[float, int]:
            row = conn.execute(_TAKE, (name, float(burst) - 1.0, float(now), float(rate), int(burst))).fetchone()
            return float(row[0]), int(row[1])

        tokens, granted = self._db.write(write)
        return Verdict(True) if granted else _refusal(tokens, rate)

    def peek(self, name: str, rate: float, burst: int, now: float) -> Verdict:
        if rate <= 0:
            return Verdict(True)
        rows = self._db.fetch("SELECT tokens, at FROM rate_buckets WHERE name = ?", (name,))
        if not rows:
            return Verdict(True)
        tokens = min(float(burst), float(rows[0][0]) + max(0.0, now - float(rows[0][1])) * rate)
        return Verdict(True) if tokens >= 1.0 else _refusal(tokens, rate)

    def prune(self, now: float, max_names: int) -> int:
        def write(conn: Any) -> int:
            conn.execute(f"DELETE FROM rate_buckets WHERE {_FULL}", (float(now), float(now)))
            left = int(conn.execute("SELECT COUNT(*) FROM rate_buckets").fetchone()[0])
            if left > max_names:
                keep = max_names * 9 // 10  # room for the next many, so pruning stays rare
                conn.execute(
                    "DELETE FROM rate_buckets WHERE name IN (SELECT name FROM rate_buckets ORDER BY at, name LIMIT ?)",
                    (left - keep,),
                )
                left = keep
            return left

        return self._db.write(write)

    def count(self) -> int:
        return int(self._db.fetch("SELECT COUNT(*) FROM rate_buckets", ())[0][0])
