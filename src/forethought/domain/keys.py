"""API keys: a key belongs to one workspace; only its hash is stored; it is shown once.

A key's role says what it may do there: a `member` key reads and writes memory; an `admin` key
may also manage the workspace's keys and erase memory. The CLI, run by the operator, always may.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["ADMIN", "MEMBER", "ApiKey", "KeyRole", "hash_key", "new_key"]

_PREFIX = "ft"

KeyRole = Literal["admin", "member"]
ADMIN: KeyRole = "admin"
MEMBER: KeyRole = "member"


class ApiKey(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str  # public: safe to list and log
    workspace: str
    name: str
    created_at: datetime
    revoked_at: datetime | None = None
    role: KeyRole = MEMBER

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    @property
    def admin(self) -> bool:
        return self.role == ADMIN


def new_key() -> tuple[str, str]:
    """A fresh (key id, full key). The full key is `ft_<id>_<secret>`, 256 bits of secret."""
    key_id = secrets.token_hex(6)
    return key_id, f"{_PREFIX}_{key_id}_{secrets.token_urlsafe(32)}"


def hash_key(full_key: str) -> str:
    """What the store keeps. A plain sha256 suffices: the secret is random, not a password."""
    return hashlib.sha256(full_key.encode("utf-8")).hexdigest()
