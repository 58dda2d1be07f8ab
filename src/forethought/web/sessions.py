"""Browser sessions: a random token in a cookie, everything else on the server.

Logging in with an API key creates a `WebSession` (the key's id and workspace, a CSRF token,
notices waiting to be shown) under a fresh 256-bit token; the browser holds only the token, in an
HTTP-only, SameSite=Strict cookie. The key itself is never stored here nor put in a URL. Every
request checks that the key is still active (see `deps.get_viewer`), so revoking a key logs its
browsers out. Sessions live in the server process: a restart logs everyone out.

Sessions are bounded per key, per workspace and in all, so no key can push another key's
browsers out: a key past its own cap loses its own oldest session; a login that would take a
workspace (or the server) past its cap takes the place of that key's own oldest session, or is
refused (`SessionsFull`) when the key has none. Another key's session is never evicted.

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
    "SessionsFull",
    "WebSession",
    "same_token",
]

SESSION_COOKIE = "forethought_session"
LOGIN_COOKIE = "forethought_login"
IDLE_S = 8 * 3600  # a session unused this long has ended
MAX_AGE_S = 7 * 24 * 3600  # and none outlives this
MAX_SESSIONS = 20_000  # in all: a bound on memory (a session is a few hundred bytes)
MAX_PER_WORKSPACE = 500
MAX_PER_KEY = 20  # browsers one key may keep logged in at once
_EXPIRY_EVERY_S = 60.0  # ended sessions are swept at most this often (and whenever a cap is hit)


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

    def __init__(
        self,
        *,
        max_sessions: int = MAX_SESSIONS,
        max_per_workspace: int = MAX_PER_WORKSPACE,
        max_per_key: int = MAX_PER_KEY,
    ) -> None:
        self.max_sessions = max_sessions
        self.max_per_workspace = max_per_workspace
        self.max_per_key = max_per_key
        self._sessions: dict[str, WebSession] = {}
        self._by_key: dict[str, dict[str, None]] = {}  # key id -> its tokens, oldest first
        self._per_workspace: dict[str, int] = {}
        self._lock = threading.Lock()
        self._swept = float("-inf")

    def create(self, key_id: str, workspace: str) -> tuple[str, WebSession]:
        """A new session for the key. Raises SessionsFull when there is no room (see the module)."""
        now = time.monotonic()
        token = secrets.token_urlsafe(32)
        session = WebSession(key_id, workspace, secrets.token_urlsafe(32), created=now, seen=now)
        with self._lock:
            if now - self._swept > _EXPIRY_EVERY_S:
                self._expire(now)
            if self._full(key_id, workspace):
                self._expire(now)
            while self._full(key_id, workspace):
                own = self._by_key.get(key_id)
                if not own:
                    raise SessionsFull(
                        "this workspace has as many browser sessions as it may; log out elsewhere or try later"
                        if self._per_workspace.get(workspace, 0) >= self.max_per_workspace
                        else "the server has as many browser sessions as it may; try later"
                    )
                self._remove(next(iter(own)))  # the key's own oldest session
            self._sessions[token] = session
            self._by_key.setdefault(key_id, {})[token] = None
            self._per_workspace[workspace] = self._per_workspace.get(workspace, 0) + 1
        return token, session

    def count(self, *, key_id: str | None = None, workspace: str | None = None) -> int:
        """Sessions held (by one key, or in one workspace, or in all)."""
        with self._lock:
            if key_id is not None:
                return len(self._by_key.get(key_id, {}))
            if workspace is not None:
                return self._per_workspace.get(workspace, 0)
            return len(self._sessions)

    def get(self, token: str | None) -> WebSession | None:
        if not token:
            return None
        now = time.monotonic()
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                return None
            if session.ended(now):
                self._remove(token)
                return None
            session.seen = now
            return session

    def drop(self, token: str | None) -> None:
        if token:
            with self._lock:
                self._remove(token)

    def notify(self, session: WebSession, text: str, level: Literal["ok", "error"] = "ok") -> None:
        with self._lock:
            session.notices.append(Notice(text, level))

    def take_notices(self, session: WebSession) -> list[Notice]:
        with self._lock:
            notices, session.notices = session.notices, []
        return notices

    def _full(self, key_id: str, workspace: str) -> bool:
        return (
            len(self._by_key.get(key_id, {})) >= self.max_per_key
            or self._per_workspace.get(workspace, 0) >= self.max_per_workspace
            or len(self._sessions) >= self.max_sessions
        )

    def _remove(self, token: str) -> None:
        session = self._sessions.pop(token, None)
        if session is None:
            return
        own = self._by_key.get(session.key_id)
        if own is not None:
            own.pop(token, None)
            if not own:
                del self._by_key[session.key_id]
        left = self._per_workspace.get(session.workspace, 1) - 1
        if left > 0:
            self._per_workspace[session.workspace] = left
        else:
            self._per_workspace.pop(session.workspace, None)

    def _expire(self, now: float) -> None:
        self._swept = now
        stale = [token for token, session in self._sessions.items() if session.ended(now)]
        for token in stale:
            self._remove(token)
