"""Browser sessions (SQLite and PostgreSQL): one row per session, its caps kept in the transaction
that creates it. `lock(conn, name)` is the backend's way to serialise creators of one key and one
workspace (SQLite's write lock already does; PostgreSQL takes advisory locks)."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from forethought.domain.times import format_time, stored_time
from forethought.store.contracts.logins import Login, LoginLimits, LoginsFull, LoginStore
from forethought.store.rows import dump_json
from forethought.store.sql.database import SqlDatabase

__all__ = ["SqlLogins"]

_COLUMNS = "token_hash, key_id, workspace, csrf, created_at, seen_at"
_SEEN_EVERY_S = 60.0  # a session's last-seen time is written at most this often (a page view is a read)
_LIVE = "seen_at >= ? AND created_at >= ?"  # ended: unused longer than idle_s, or older than max_age_s


def _live_args(now: datetime, limits: LoginLimits) -> tuple[str, str]:
    return format_time(now - timedelta(seconds=limits.idle_s)), format_time(now - timedelta(seconds=limits.max_age_s))


def _login(row: Any) -> Login:
    return Login(row[0], row[1], row[2], row[3], stored_time(row[4]), stored_time(row[5]))


class SqlLogins(LoginStore):
    def __init__(self, db: SqlDatabase, lock: Callable[[Any, str], None]) -> None:
        self._db = db
        self._lock = lock

    def create(self, login: Login, limits: LoginLimits) -> None:
        live = _live_args(login.created_at, limits)

        def write(conn: Any) -> None:
            self._lock(conn, f"login-key:{login.key_id}")
            self._lock(conn, f"login-workspace:{login.workspace}")
            conn.execute(f"DELETE FROM logins WHERE NOT ({_LIVE})", live)

            def count(where: str, *args: Any) -> int:
                return int(conn.execute(f"SELECT COUNT(*) FROM logins WHERE {where}", args).fetchone()[0])

            while True:
                own = count("key_id = ?", login.key_id)
                workspace_full = count("workspace = ?", login.workspace) >= limits.per_workspace
                if own < limits.per_key and not workspace_full and count("1 = 1") < limits.total:
                    break
                if not own:
                    raise LoginsFull(workspace=workspace_full)
                conn.execute(  # the key's own oldest session makes room
                    "DELETE FROM logins WHERE token_hash = (SELECT token_hash FROM logins WHERE key_id = ?"
                    " ORDER BY created_at, token_hash LIMIT 1)",
                    (login.key_id,),
                )
            conn.execute(
                f"INSERT INTO logins ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    login.token_hash,
                    login.key_id,
                    login.workspace,
                    login.csrf,
                    format_time(login.created_at),
                    format_time(login.seen_at),
                ),
            )

        self._db.write(write)

    def get(self, token_hash: str, now: datetime, limits: LoginLimits) -> Login | None:
        rows = self._db.fetch(f"SELECT {_COLUMNS} FROM logins WHERE token_hash = ?", (token_hash,))
        if not rows:
            return None
        login = _login(rows[0])
        idle_since, born_after = _live_args(now, limits)
        if format_time(login.seen_at) < idle_since or format_time(login.created_at) < born_after:
            self.drop(token_hash)
            return None
        if (now - login.seen_at).total_seconds() >= _SEEN_EVERY_S:
            self._db.write(
                lambda c: c.execute(
                    "UPDATE logins SET seen_at = ? WHERE token_hash = ?", (format_time(now), token_hash)
                )
            )
        return login

    def drop(self, token_hash: str) -> None:
        self._db.write(lambda c: c.execute("DELETE FROM logins WHERE token_hash = ?", (token_hash,)))

    def count(
        self, now: datetime, limits: LoginLimits, *, key_id: str | None = None, workspace: str | None = None
    ) -> int:
        sql, args = f"SELECT COUNT(*) FROM logins WHERE {_LIVE}", list(_live_args(now, limits))
        if key_id is not None:
            sql, args = sql + " AND key_id = ?", [*args, key_id]
        if workspace is not None:
            sql, args = sql + " AND workspace = ?", [*args, workspace]
        return int(self._db.fetch(sql, args)[0][0])

    def add_notice(self, token_hash: str, text: str, level: str) -> None:
        def write(conn: Any) -> None:
            row = conn.execute("SELECT notices FROM logins WHERE token_hash = ?", (token_hash,)).fetchone()
            if row is not None:
                notices = [*json.loads(row[0]), [text, level]][-20:]  # a page shows a few; keep the newest
                conn.execute("UPDATE logins SET notices = ? WHERE token_hash = ?", (dump_json(notices), token_hash))

        self._db.write(write)

    def take_notices(self, token_hash: str) -> builtins.list[tuple[str, str]]:
        waiting = self._db.fetch("SELECT notices FROM logins WHERE token_hash = ?", (token_hash,))
        if not waiting or waiting[0][0] == "[]":
            return []  # the usual page: a read, no write

        def write(conn: Any) -> builtins.list[tuple[str, str]]:
            row = conn.execute("SELECT notices FROM logins WHERE token_hash = ?", (token_hash,)).fetchone()
            if row is None or row[0] == "[]":
                return []
            conn.execute("UPDATE logins SET notices = '[]' WHERE token_hash = ?", (token_hash,))
            return [(str(t), str(level)) for t, level in json.loads(row[0])]

        return self._db.write(write)
