"""SearchIndex: the three ways a store finds candidate records for recall, and the vectors it keeps."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from forethought.store.types import RecordFilter, RecordVectors, ScoredId, Vector

__all__ = ["SearchIndex"]


class SearchIndex(ABC):
    """Ranked record ids of one space, best first, among the records matching a filter. Callers
    load the records themselves (`RecordStore.get_many`), so a search returns ids and scores only.

    Every method may raise `StoreBusy` and `BackendError`; an empty query returns [].
    """

    @abstractmethod
    def keyword(self, space_id: str, words: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        """BM25 over statement and search text for records containing any of `words` (plain
        words; the store owns its query syntax, so nothing a user types is read as syntax).

        Higher score is better. A backend may bound its work on very common words (see the
        SQLite store); when it does, records containing every word come first.
        """

    @abstractmethod
    def vector(self, space_id: str, vector: Vector, flt: RecordFilter, limit: int) -> list[ScoredId]:
        """Nearest records by cosine similarity among those matching `flt`."""

    @abstractmethod
    def terms(self, space_id: str, terms: Sequence[str], flt: RecordFilter, limit: int) -> list[ScoredId]:
        """Records sharing the most exact terms with `terms` (score = number shared)."""

    @abstractmethod
    def record_vectors(self, space_id: str, record_ids: Sequence[str]) -> dict[str, RecordVectors]:
        """The embeddings kept for those of `record_ids` that are in the space and have any, by id:
        the statement's (the one `vector` searches) and the first evidence quote's, made at retain
        time. Ids of other spaces, unknown ids and records without vectors are left out."""
