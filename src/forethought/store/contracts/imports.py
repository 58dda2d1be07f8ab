"""ImportJobStore: browser imports and their progress events, kept in the database so that a page
whose event stream reaches another server process still follows the import, and a job whose
process died is seen as stopped instead of running for ever."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime

__all__ = ["ImportEvent", "ImportJobLimits", "ImportJobStore", "ImportView", "ImportsFull"]


@dataclass(frozen=True)
class ImportEvent:
    """One step of an import: its stage, how far along, a line for people; `finished` on the last."""

    seq: int
    stage: str
    percent: int
    message: str
    finished: bool = False


@dataclass(frozen=True)
class ImportView:
    """What a follower sees of a job: whether it ended, when its process last spoke, new events."""

    finished: bool
    updated_at: datetime
    events: builtins.list[ImportEvent]


@dataclass(frozen=True)
class ImportJobLimits:
    """Jobs kept per space; events kept per job (the oldest go first); a job not heard of for
    `stale_s` has lost its process; any job untouched for `keep_s` is forgotten."""

    per_space: int
    events: int
    stale_s: float
    keep_s: float


class ImportsFull(Exception):
    """Every job the space may keep is still running: none can make room for another."""


class ImportJobStore(ABC):
    """Import jobs by id, each belonging to one space: a job of another space is never returned
    (fail closed). Every method may raise `StoreBusy` and `BackendError`."""

    @abstractmethod
    def start(self, job_id: str, space_id: str, now: datetime, limits: ImportJobLimits) -> None:
        """Record a new running job, atomically with making room for it: jobs untouched for
        `keep_s` go; past `per_space`, the space's oldest finished (or stale) job goes, and
        ImportsFull is raised when every one of them is still running."""

    @abstractmethod
    def publish(
        self,
        job_id: str,
        stage: str,
        percent: int,
        message: str,
        *,
        finished: bool,
        now: datetime,
        limits: ImportJobLimits,
    ) -> bool:
        """Append the next event (numbered after the last) and mark the job alive at `now`, or
        finished; keeps the newest `limits.events`. False (nothing written) when the job is
        unknown or already finished."""

    @abstractmethod
    def beat(self, job_id: str, now: datetime) -> None:
        """Mark a running job alive at `now` (its process is working on a long step)."""

    @abstractmethod
    def follow(self, job_id: str, space_id: str, after_seq: int, limit: int) -> ImportView | None:
        """The job's state and up to `limit` events after `after_seq` (-1 for all), or None when
        there is no such job in this space."""

    @abstractmethod
    def abandon(self, job_id: str, space_id: str, stale_before: datetime, message: str, now: datetime) -> bool:
        """End a job whose process stopped: when it is unfinished and not heard of since
        `stale_before`, append a final failed event saying `message`; True when it did."""
