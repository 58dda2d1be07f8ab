"""TraceStore: what each turn (or other traced run: a compare) did, kept as JSON for the
workspace and the API to show; each trace has a `kind`, so a reader asks for the kind it reads."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from datetime import datetime
from typing import Any

__all__ = ["TraceStore"]


class TraceStore(ABC):
    """Traces of one space at a time; a trace of another space is not found.

    Every method may raise `StoreBusy` and `BackendError`.
    """

    @abstractmethod
    def add(
        self,
        space_id: str,
        trace_id: str,
        *,
        kind: str,
        session_id: str | None,
        created_at: datetime,
        data: dict[str, Any],
    ) -> None:
        """Store one trace. Raises NotFound when the space is gone and Conflict when the id is taken."""

    @abstractmethod
    def get(self, space_id: str, trace_id: str, *, kind: str | None = None) -> dict[str, Any]:
        """The stored trace data; NotFound for an unknown id, one of another space, or (with
        `kind`) one of another kind."""

    @abstractmethod
    def list(
        self, space_id: str, *, limit: int = 50, before_id: str | None = None, kind: str | None = None
    ) -> builtins.list[dict[str, Any]]:
        """Newest first; with `before_id`, only traces older than that one (a keyset cursor); with
        `kind`, only traces of that kind."""
