"""HindsightAPI: the part of a Hindsight server's HTTP API the engine uses, as one small contract.

One memory bank holds every space's documents; a document is one record (`document_id` = record
id), tagged with its space, kind, area and status, so every recall names its space in a tag filter
and the store re-checks every result anyway. Two implementations: `HttpHindsight` (a real server
over httpx) and `FakeHindsight` (in memory, for tests).

Every method raises `HindsightUnavailable` (a BackendError) when the server cannot be reached or
answers with an error other than the "not found" a method documents.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from forethought.errors import BackendError

__all__ = ["Document", "DocumentInfo", "HindsightAPI", "HindsightUnavailable", "IndexHit", "TagGroup"]


class HindsightUnavailable(BackendError):
    """The Hindsight server could not be reached, or failed a request."""


@dataclass(frozen=True)
class Document:
    """What the engine retains for one record (`update_mode` replace: retaining again is a no-op)."""

    id: str  # the record id
    text: str
    timestamp: datetime  # the record's occurred_at
    tags: tuple[str, ...]


@dataclass(frozen=True)
class DocumentInfo:
    """A stored document as listed: its id, tags and the sha256 of its text."""

    id: str
    tags: frozenset[str]
    content_hash: str


@dataclass(frozen=True)
class TagGroup:
    """One AND-ed term of a recall's tag filter: `match` "all_strict" (every tag) or "any_strict"
    (at least one); untagged memories never match either."""

    tags: tuple[str, ...]
    match: str = "all_strict"


@dataclass(frozen=True)
class IndexHit:
    """One recall result: the document it came from, the tags the index holds, its final score."""

    document_id: str
    tags: frozenset[str]
    score: float


class HindsightAPI(ABC):
    """One bank of one Hindsight server."""

    bank: str

    @abstractmethod
    def ensure_bank(self) -> None:
        """Create the bank if it does not exist (idempotent)."""

    @abstractmethod
    def retain(self, document: Document) -> None:
        """Store the document, replacing one with the same id (its text, time and tags)."""

    @abstractmethod
    def retag(self, document_id: str, tags: Sequence[str]) -> bool:
        """Replace the document's tags (and its memories'); False when there is no such document."""

    @abstractmethod
    def delete(self, document_id: str) -> bool:
        """Delete the document and its memories; False when there was no such document."""

    @abstractmethod
    def recall(self, query: str, groups: Sequence[TagGroup], *, max_tokens: int) -> list[IndexHit]:
        """Memories matching every tag group, best first, up to `max_tokens` of their text."""

    @abstractmethod
    def documents(self, *, limit: int, offset: int) -> list[DocumentInfo]:
        """One page of the bank's documents, in a stable order."""

    @abstractmethod
    def version(self) -> str:
        """The server's API version."""

    def close(self) -> None:
        """Release the client's connections (the memory it serves is closing)."""
        return None
