"""API keys: one workspace each, stored as a hash, shown once, revocable."""

from __future__ import annotations

from forethought.domain import limits
from forethought.domain.keys import ADMIN, MEMBER, ApiKey, KeyRole, hash_key, new_key
from forethought.domain.times import utcnow
from forethought.errors import InvalidInput, NotFound
from forethought.store.base import Store

__all__ = ["Keys"]

MAX_PRESENTED = 200  # longer than any key we issue: refused before hashing


class Keys:
    """Issuing, checking and revoking the API keys of a store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, workspace: str, *, name: str = "default", role: KeyRole = MEMBER) -> tuple[ApiKey, str]:
        """A new key for `workspace`: the record, and the full key (shown once, never stored).
        A key is a member unless asked otherwise: admin is given, never assumed."""
        clean_workspace = limits.check_name(workspace, field="workspace")
        if role not in (ADMIN, MEMBER):
            raise InvalidInput(f"role: must be {ADMIN!r} or {MEMBER!r}, not {role!r}")
        key_id, full = new_key()
        key = ApiKey(
            id=key_id,
            workspace=clean_workspace,
            name=limits.check_name(name, field="name"),
            created_at=utcnow(),
            role=role,
        )
        self.store.keys.add(key, hash_key(full))
        return key, full

    def authenticate(self, full_key: str) -> ApiKey | None:
        """The active key matching `full_key`, or None (unknown, malformed or revoked)."""
        if not isinstance(full_key, str) or not full_key.startswith("ft_") or len(full_key) > MAX_PRESENTED:
            return None
        key = self.store.keys.by_hash(hash_key(full_key))
        return key if key is not None and key.active else None

    def revoke(self, key_id: str, *, workspace: str | None = None) -> ApiKey:
        """Revoke a key (idempotent). With `workspace`, only a key of that workspace: another's is
        NotFound, exactly like an unknown id (the server passes the caller's workspace)."""
        if workspace is not None and all(k.id != key_id for k in self.store.keys.list(workspace)):
            raise NotFound(f"no API key {key_id!r}")
        return self.store.keys.revoke(key_id, utcnow())

    def list(self, workspace: str | None = None) -> list[ApiKey]:
        return self.store.keys.list(workspace)
