"""Browser sessions: a random token in a cookie, everything else on the server.

Logging in with an API key creates a `WebSession` (the key's id and workspace, a CSRF token,
notices waiting to be shown) under a fresh 256-bit token; the browser holds only the token, in an
HTTP-only, SameSite=Strict cookie. The key itself is never stored here nor put in a URL. Every
request checks that the key is still active (see `deps.get_viewer`), so revoking a key logs its
browsers out. Sessions live in the server process: a restart logs everyone out.

Forms are protected twice: SameSite=Strict keeps the cookie off cross-site requests, and every
POST carries the session's CSRF token, compared in constant time. The login form, which has no
session yet, uses a double-submit token in a cookie of its own.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "LOGIN_COOKIE",
    "SESSION_COOKIE",
    "Notice",
    "SessionStore",
    "WebSession",
    "same_token",
]

SESSION_COOKIE = "forethought_session"
LOGIN_COOKIE = "forethought_login"
IDLE_S = 8 * 3600  # a session unused this long has ended
MAX_AGE_S = 7 * 24 * 3600  # and none outlives this
MAX_SESSIONS = 10_000


@dataclass(frozen=True)
class Notice:
    """A one-line message shown once on the next page (after a redirect)."""

    text: str
    level: Literal["ok", "error"] = "ok"


@dataclass
class WebSession:
    key_id: str
    workspace: str
    csrf: str
    created: float
    seen: float
    notices: list[Notice] = field(default_factory=list)

    def ended(self, now: float) -> bool:
        return now - self.seen > IDLE_S or now - self.created > MAX_AGE_S


def same_token(presented: str | None, expected: str) -> bool:
    """Constant-time comparison of a presented token with the expected one."""
    if not presented or not expected:
        return False
    return hmac.compare_digest(presented.encode("utf-8"), expected.encode("utf-8"))


class SessionStore:
    """Sessions by token, thread-safe (pages run in FastAPI's thread pool)."""

    def __init__(self) -> None:
        self._sessions: dict[str, WebSession] = {}
        self._lock = threading.Lock()

    def create(self, key_id: str, workspace: str) -> tuple[str, WebSession]:
        now = time.monotonic()
        token = secrets.token_urlsafe(32)
        session = WebSession(key_id, workspace, secrets.token_urlsafe(32), created=now, seen=now)
        with self._lock:
            self._expire(now)
            if len(self._sessions) >= MAX_SESSIONS:  # drop the least recently used
                oldest = min(self._sessions, key=lambda t: self._sessions[t].seen)
                del self._sessions[oldest]
            self._sessions[token] = session
        return token, session

    def get(self, token: str | None) -> WebSession | None:
        if not token:
            return None
        now = time.monotonic()
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                return None
            if session.ended(now):
                del self._sessions[token]
                return None
            session.seen = now
            return session

    def drop(self, token: str | None) -> None:
        if token:
            with self._lock:
                self._sessions.pop(token, None)

    def notify(self, session: WebSession, text: str, level: Literal["ok", "error"] = "ok") -> None:
        with self._lock:
            session.notices.append(Notice(text, level))

    def take_notices(self, session: WebSession) -> list[Notice]:
        with self._lock:
            notices, session.notices = session.notices, []
        return notices

    def _expire(self, now: float) -> None:
        stale = [token for token, session in self._sessions.items() if session.ended(now)]
        for token in stale:
            del self._sessions[token]
