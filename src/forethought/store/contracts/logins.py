"""LoginStore: the web workspace's browser sessions, kept in the database so that a restart logs
nobody out and every server process sees the same sessions."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime

__all__ = ["Login", "LoginLimits", "LoginStore", "LoginsFull"]


@dataclass(frozen=True)
class Login:
    """One browser session: who it is for and its form token (never the session token itself,
    which is stored only as a hash)."""

    token_hash: str
    key_id: str
    workspace: str
    csrf: str
    created_at: datetime
    seen_at: datetime


@dataclass(frozen=True)
class LoginLimits:
    """How long a session lasts unused and at most, and how many may be held at once."""

    idle_s: float
    max_age_s: float
    per_key: int
    per_workspace: int
    total: int


class LoginsFull(Exception):
    """No room for another session of this key: its workspace (or everything) is at its cap and
    the key holds no session of its own to give up. `workspace` says which cap it was."""

    def __init__(self, *, workspace: bool) -> None:
        super().__init__("workspace" if workspace else "total")
        self.workspace = workspace


class LoginStore(ABC):
    """Browser sessions by the hash of their token. Every method may raise `StoreBusy` and
    `BackendError`; sessions past `idle_s` unused or `max_age_s` old are never returned."""

    @abstractmethod
    def create(self, login: Login, limits: LoginLimits) -> None:
        """Store a new session, atomically with making room for it: ended sessions go; a key at its
        own cap gives up its oldest session; a workspace or the whole store at its cap takes the
        place of this key's oldest session, or raises LoginsFull when the key has none. Another
        key's session is never removed."""

    @abstractmethod
    def get(self, token_hash: str, now: datetime, limits: LoginLimits) -> Login | None:
        """The session (marked seen at `now`), or None when unknown or ended (an ended one is removed)."""

    @abstractmethod
    def drop(self, token_hash: str) -> None:
        """End a session (nothing happens for an unknown one)."""

    @abstractmethod
    def count(
        self, now: datetime, limits: LoginLimits, *, key_id: str | None = None, workspace: str | None = None
    ) -> int:
        """Sessions not ended (of one key, or of one workspace, or in all)."""

    @abstractmethod
    def add_notice(self, token_hash: str, text: str, level: str) -> None:
        """Queue a one-line message for the session's next page."""

    @abstractmethod
    def take_notices(self, token_hash: str) -> builtins.list[tuple[str, str]]:
        """The queued messages, (text, level) oldest first, and forget them."""
