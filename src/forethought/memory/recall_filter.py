"""The filter of one recall, built from what a caller asked and checked against the limits."""

from __future__ import annotations

from collections.abc import Sequence

from forethought.domain import Status, limits
from forethought.domain.times import parse_time
from forethought.memory.writing import TimeRef
from forethought.store.base import RecordFilter

__all__ = ["recall_filter"]


def recall_filter(
    *,
    kinds: Sequence[str] = (),
    tags: Sequence[str] = (),
    statuses: Sequence[Status] | None = None,
    as_of: TimeRef = None,
    after: TimeRef = None,
    before: TimeRef = None,
) -> RecordFilter:
    """Current records only unless `statuses` or `as_of` say otherwise (`as_of` travels in valid
    time, so it admits superseded records by default). InvalidInput for a value past the limits."""
    when = None if as_of is None else parse_time(as_of, field="as_of")
    if statuses is None:
        statuses = (Status.ACTIVE, Status.SUPERSEDED) if when is not None else (Status.ACTIVE,)
    return RecordFilter(
        statuses=tuple(Status(s) for s in statuses),
        kinds=tuple(limits.check_kind(kind) for kind in kinds),
        tags=limits.check_tags(tags),
        occurred_after=None if after is None else parse_time(after, field="after"),
        occurred_before=None if before is None else parse_time(before, field="before"),
        as_of=when,
    )
