"""SpaceStore: the spaces (one per named subject) a store holds."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod

from forethought.domain import Space, SpaceKey

__all__ = ["SpaceStore"]


class SpaceStore(ABC):
    """Spaces by key. A space id is derived from the key under the store's secret; callers never
    make one up, so a space can only be reached by naming its subject.

    Every method may raise `StoreBusy` (the write lock stayed taken past the deadline) and
    `BackendError` (anything else the backend reports).
    """

    @abstractmethod
    def resolve(self, key: SpaceKey, *, create: bool = True) -> Space:
        """The space of `key`, created on first use (its id is an HMAC under the store secret).

        Raises NotFound when it does not exist and `create` is False.
        """

    @abstractmethod
    def list(self, workspace: str | None = None) -> builtins.list[Space]:
        """Every space (of `workspace` when given), oldest first."""

    @abstractmethod
    def erase(self, space_id: str, *, actor: str) -> int:
        """Remove every row of the space from every table and index; returns records removed.

        One `space_erased` audit event (counts only, no text) is left under the erased id.
        """
