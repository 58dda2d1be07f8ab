"""KeyStore: API keys, each belonging to one workspace with a role (admin or member), kept only as a hash."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from datetime import datetime

from forethought.domain.keys import ApiKey

__all__ = ["KeyStore"]


class KeyStore(ABC):
    """API keys by id and by hash; the key itself is never stored.

    Every method may raise `StoreBusy` and `BackendError`.
    """

    @abstractmethod
    def add(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key (its role included) under its hash. Raises Conflict when the id or hash is taken."""

    @abstractmethod
    def by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash, revoked or not (callers check `active`)."""

    @abstractmethod
    def list(self, workspace: str | None = None) -> builtins.list[ApiKey]:
        """Every key (of `workspace` when given), oldest first, revoked ones included."""

    @abstractmethod
    def revoke(self, key_id: str, at: datetime) -> ApiKey:
        """Mark a key revoked (idempotent: the first revocation time stays); NotFound for an unknown id."""
