"""Browser sessions: a random token in a cookie, everything else on the server.

Logging in with an API key creates a `WebSession` (the key's id and workspace, a CSRF token,
notices waiting to be shown) under a fresh 256-bit token; the browser holds only the token, in an
HTTP-only, SameSite=Strict cookie. The key itself is never stored here nor put in a URL. Every
request checks that the key is still active (see `deps.get_viewer`), so revoking a key logs its
browsers out. Sessions live in the database (`store.logins`, the token only as its SHA-256), so a
restart logs nobody out and several server processes share them.

Sessions are bounded per key, per workspace and in all, so no key can push another key's
browsers out: a key past its own cap loses its own oldest session; a login that would take a
workspace (or the server) past its cap takes the place of that key's own oldest session, or is
refused (`SessionsFull`) when the key has none. Another key's session is never evicted.

Forms are protected twice: SameSite=Strict keeps the cookie off cross-site requests, and every
POST carries the session's CSRF token, compared in constant time. The login form, which has no
session yet, uses a double-submit token in a cookie of its own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from forethought.domain.times import utcnow
from forethought.store.contracts.logins import Login, LoginLimits, LoginsFull, LoginStore

__all__ = [
    "LOGIN_COOKIE",
    "SESSION_COOKIE",
    "Notice",
    "SessionStore",
    "SessionsFull",
    "WebSession",
    "same_token",
]

SESSION_COOKIE = "forethought_session"
LOGIN_COOKIE = "forethought_login"
IDLE_S = 8 * 3600  # a session unused this long has ended
MAX_AGE_S = 7 * 24 * 3600  # and none outlives this
MAX_SESSIONS = 20_000  # in all (a session is a row of a few hundred bytes)
MAX_PER_WORKSPACE = 500
MAX_PER_KEY = 20  # browsers one key may keep logged in at once


class SessionsFull(Exception):
    """No room for another session of this key: its workspace (or the server) is at its cap and
    the key has no session of its own to give up."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Notice:
    """A one-line message shown once on the next page (after a redirect)."""

    text: str
    level: Literal["ok", "error"] = "ok"


@dataclass(frozen=True)
class WebSession:
    token_hash: str
    key_id: str
    workspace: str
    csrf: str


def same_token(presented: str | None, expected: str) -> bool:
    """Constant-time comparison of a presented token with the expected one."""
    if not presented or not expected:
        return False
    return hmac.compare_digest(presented.encode("utf-8"), expected.encode("utf-8"))


class SessionStore:
    """Browser sessions by token, kept in the store (`store.logins`): the token itself stays in the
    cookie and only its hash is stored, so neither a restart nor another server process logs a
    browser out. `clock` is for the tests."""

    def __init__(
        self,
        logins: LoginStore,
        *,
        max_sessions: int = MAX_SESSIONS,
        max_per_workspace: int = MAX_PER_WORKSPACE,
        max_per_key: int = MAX_PER_KEY,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self._logins = logins
        self._clock = clock
        self.limits = LoginLimits(IDLE_S, MAX_AGE_S, max_per_key, max_per_workspace, max_sessions)

    def create(self, key_id: str, workspace: str) -> tuple[str, WebSession]:
        """A new session for the key. Raises SessionsFull when there is no room (see the module)."""
        now = self._clock()
        token = secrets.token_urlsafe(32)
        login = Login(_hash(token), key_id, workspace, secrets.token_urlsafe(32), now, now)
        try:
            self._logins.create(login, self.limits)
        except LoginsFull as full:
            raise SessionsFull(
                "this workspace has as many browser sessions as it may; log out elsewhere or try later"
                if full.workspace
                else "the server has as many browser sessions as it may; try later"
            ) from None
        return token, WebSession(login.token_hash, key_id, workspace, login.csrf)

    def count(self, *, key_id: str | None = None, workspace: str | None = None) -> int:
        """Sessions held (by one key, or in one workspace, or in all)."""
        return self._logins.count(self._clock(), self.limits, key_id=key_id, workspace=workspace)

    def get(self, token: str | None) -> WebSession | None:
        if not token or len(token) > 128:
            return None
        login = self._logins.get(_hash(token), self._clock(), self.limits)
        return None if login is None else WebSession(login.token_hash, login.key_id, login.workspace, login.csrf)

    def drop(self, token: str | None) -> None:
        if token and len(token) <= 128:
            self._logins.drop(_hash(token))

    def notify(self, session: WebSession, text: str, level: Literal["ok", "error"] = "ok") -> None:
        self._logins.add_notice(session.token_hash, text, level)

    def take_notices(self, session: WebSession) -> list[Notice]:
        return [
            Notice(text, "error" if level == "error" else "ok")
            for text, level in self._logins.take_notices(session.token_hash)
        ]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
