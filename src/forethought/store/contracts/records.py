"""RecordStore: the system of record — records, their versions and their erasure."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from collections.abc import Sequence

from forethought.domain import Record
from forethought.store.types import ChangeSet, RecordFilter

__all__ = ["RecordStore"]


class RecordStore(ABC):
    """Records of one space at a time. A record of another space is never returned: a backend
    that meets one drops it, counts it in `counters.foreign_rows_dropped` and logs it.

    Every method may raise `StoreBusy` (the write lock stayed taken past the deadline) and
    `BackendError` (anything else the backend reports).
    """

    @abstractmethod
    def apply(self, changes: ChangeSet) -> None:
        """Write a change set atomically (see ChangeSet).

        Raises InvalidInput when it writes records of another space (or a vector of the wrong
        shape), NotFound when the space is gone or an evidence target is not in it, and Conflict
        on a lost compare-and-set race or a clash with stored data (an id or external id taken).
        """

    @abstractmethod
    def get(self, space_id: str, record_id: str) -> Record:
        """One record by id or handle (any case).

        Raises NotFound (also for a record of another space) and InvalidInput for a handle that
        names several records of the space.
        """

    @abstractmethod
    def get_many(self, space_id: str, record_ids: Sequence[str]) -> builtins.list[Record]:
        """Records by id, in the order asked, silently skipping ids not in this space."""

    @abstractmethod
    def ids_in_use(self, record_ids: Sequence[str], *, space_id: str | None = None) -> set[str]:
        """Which of these ids exist — in `space_id`, or in any space when it is None (ids only,
        never content: import uses it to decide which ids must be replaced)."""

    @abstractmethod
    def find_by_external_id(self, space_id: str, external_id: str) -> Record | None:
        """The record of this space carrying `external_id`, or None."""

    @abstractmethod
    def lineage(self, space_id: str, lineage_id: str) -> builtins.list[Record]:
        """Every version of one fact, oldest first (empty for an unknown lineage)."""

    @abstractmethod
    def list(
        self,
        space_id: str,
        flt: RecordFilter,
        *,
        limit: int = 100,
        after_id: str | None = None,
        newest_first: bool = False,
    ) -> builtins.list[Record]:
        """Records matching `flt`, by id (creation order), `limit` at a time after `after_id`;
        with `newest_first`, the most recently recorded first (`after_id` then continues older)."""

    @abstractmethod
    def count(self, space_id: str, flt: RecordFilter) -> int:
        """How many records of the space match `flt`."""

    @abstractmethod
    def statement_tokens(self, space_id: str, flt: RecordFilter) -> int:
        """The summed token estimate of matching statements (`recall.packing.estimate_tokens`'s rule:
        the larger of characters / 4 and words, at least 1), computed without loading the records."""

    @abstractmethod
    def forget(self, space_id: str, lineage_id: str, *, actor: str) -> int:
        """Erase every version of a lineage from every table and index; returns versions removed.

        Links from other records (supersedes / superseded_by) to the erased ids are cut, and the
        lineage's audit rows are replaced by one `forgotten` event carrying no text. Raises
        NotFound when the lineage has no version in this space.
        """
