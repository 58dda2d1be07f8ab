"""SessionStore: conversations and their turns, kept as they were said."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from collections.abc import Sequence

from forethought.domain import AuditEvent, Session, Turn
from forethought.store.types import SentenceVector, TurnHit

__all__ = ["SessionStore"]


class SessionStore(ABC):
    """Sessions of one space at a time; a session of another space is not found.

    Every method may raise `StoreBusy` and `BackendError`.
    """

    @abstractmethod
    def add(self, session: Session, events: Sequence[AuditEvent] = (), vectors: Sequence[SentenceVector] = ()) -> None:
        """Store a session with its turns, `events` and its turns' sentence `vectors`, atomically.

        Raises NotFound when its space is gone and Conflict when the id is taken."""

    @abstractmethod
    def append_turns(
        self, space_id: str, session_id: str, turns: Sequence[Turn], vectors: Sequence[SentenceVector] = ()
    ) -> None:
        """Add turns at the end of a session (their `index` must continue the session's), with
        their sentence `vectors` (each must belong to one of `turns`).

        Raises NotFound for a session of another space, Conflict when an index is taken."""

    @abstractmethod
    def get(self, space_id: str, session_id: str) -> Session:
        """One session with every turn in order; NotFound for an unknown id or one of another space."""

    @abstractmethod
    def list(self, space_id: str, *, limit: int = 100, before_id: str | None = None) -> builtins.list[Session]:
        """Newest first; with `before_id`, only sessions older than that one (a keyset cursor)."""

    @abstractmethod
    def count(self, space_id: str) -> int:
        """How many sessions the space holds (cheap: no turn is read)."""

    @abstractmethod
    def known_refs(self, space_id: str, refs: Sequence[str]) -> builtins.set[str]:
        """Those of `refs` some session of this space was captured from (its `metadata["ref"]`: a
        commit, an ADR, a rule file), so an import files each source document once."""

    @abstractmethod
    def search_turns(self, space_id: str, words: Sequence[str], limit: int) -> builtins.list[TurnHit]:
        """The person's and agent's turns of this space's sessions that contain any of `words`
        (matched as the keyword index stems them; never read as query syntax), best first.
        Tool output and system text are not searched."""

    @abstractmethod
    def sentence_vectors(
        self, space_id: str, session_ids: Sequence[str], model: str
    ) -> builtins.dict[tuple[str, int, int], SentenceVector]:
        """The `model` sentence vectors stored with those sessions' turns, by (session id, turn
        index, start). Sessions of other spaces and unknown ids give nothing."""

    @abstractmethod
    def delete(self, space_id: str, session_id: str, *, actor: str) -> int:
        """Erase a session: its row, every turn, its keyword entries and the traces of its turns,
        leaving an audit event without text; returns the turns erased. NotFound for a session of
        another space."""

    @abstractmethod
    def redact(self, space_id: str, phrases: Sequence[str], placeholder: str, *, actor: str) -> int:
        """Replace every occurrence of `phrases` (exact text) in the space's turns and session
        titles with `placeholder`, keyword index included (a rewritten turn's sentence vectors are
        deleted); returns the turns and titles changed."""
