"""ImportJobStore: browser imports and their events in the database, on every backend — numbered
in order, bounded per space and per job, visible only from their own space, ended when their
process stopped, gone with their space."""

from __future__ import annotations

from datetime import timedelta

import pytest

from forethought.domain import SpaceKey
from forethought.domain.times import parse_time
from forethought.store.base import Store
from forethought.store.contracts.imports import ImportJobLimits, ImportsFull

T0 = parse_time("2026-05-01T09:00:00Z")
LIMITS = ImportJobLimits(per_space=3, events=5, stale_s=30, keep_s=86400)


def _space(store: Store, subject: str = "notes", workspace: str = "acme") -> str:
    return store.spaces.resolve(SpaceKey(workspace=workspace, subject_type="generic", subject_id=subject)).id


def _publish(store: Store, job: str, message: str, *, finished: bool = False, seconds: int = 1) -> bool:
    stage = "done" if finished else "remember"
    return store.imports.publish(
        job, stage, 50, message, finished=finished, now=T0 + timedelta(seconds=seconds), limits=LIMITS
    )


def test_events_are_numbered_in_order_and_followed_after_a_sequence_number(store: Store) -> None:
    space = _space(store)
    store.imports.start("job1", space, T0, LIMITS)
    assert _publish(store, "job1", "read") and _publish(store, "job1", "filed")
    assert _publish(store, "job1", "done", finished=True, seconds=2)
    view = store.imports.follow("job1", space, -1, 100)
    assert view is not None and view.finished and view.updated_at == T0 + timedelta(seconds=2)
    assert [(e.seq, e.message, e.finished) for e in view.events] == [(0, "read", False), (1, "filed", False),
                                                                     (2, "done", True)]  # fmt: skip
    later = store.imports.follow("job1", space, 0, 1)
    assert later is not None and [e.seq for e in later.events] == [1]
    assert not _publish(store, "job1", "too late")  # a finished job takes no more events
    assert not _publish(store, "nojob", "nowhere")


def test_a_job_is_visible_only_from_its_own_space(store: Store) -> None:
    space, other = _space(store), _space(store, workspace="globex")
    store.imports.start("job1", space, T0, LIMITS)
    _publish(store, "job1", "read")
    assert store.imports.follow("job1", other, -1, 100) is None
    assert store.imports.follow("nojob", space, -1, 100) is None
    assert not store.imports.abandon("job1", other, T0 + timedelta(hours=1), "stopped", T0 + timedelta(hours=1))


def test_a_job_keeps_only_its_newest_events(store: Store) -> None:
    space = _space(store)
    store.imports.start("job1", space, T0, LIMITS)
    for i in range(8):
        _publish(store, "job1", f"step {i}")
    _publish(store, "job1", "done", finished=True)
    view = store.imports.follow("job1", space, -1, 100)
    assert view is not None and [e.seq for e in view.events] == [4, 5, 6, 7, 8]


def test_a_space_keeps_a_few_jobs_the_finished_and_stale_ones_making_room(store: Store) -> None:
    space = _space(store)
    for i in range(3):
        store.imports.start(f"job{i}", space, T0 + timedelta(seconds=i), LIMITS)
    with pytest.raises(ImportsFull):  # all three running and alive
        store.imports.start("job3", space, T0 + timedelta(seconds=5), LIMITS)
    _publish(store, "job1", "done", finished=True, seconds=6)
    store.imports.start("job3", space, T0 + timedelta(seconds=7), LIMITS)  # the finished one made room
    assert store.imports.follow("job1", space, -1, 100) is None
    store.imports.start("job4", space, T0 + timedelta(seconds=60), LIMITS)  # job0 went silent 60 s ago
    assert store.imports.follow("job0", space, -1, 100) is None  # the oldest of the stale ones goes
    assert all(store.imports.follow(j, space, -1, 100) is not None for j in ("job2", "job3", "job4"))
    store.imports.start("job5", _space(store, "other"), T0 + timedelta(days=2), LIMITS)
    assert store.imports.follow("job4", space, -1, 100) is None  # a day untouched: forgotten


def test_a_silent_job_is_ended_once_and_only_when_stale(store: Store) -> None:
    space = _space(store)
    store.imports.start("job1", space, T0, LIMITS)
    store.imports.beat("job1", T0 + timedelta(seconds=20))
    assert not store.imports.abandon("job1", space, T0 + timedelta(seconds=10), "stopped", T0 + timedelta(seconds=40))
    view = store.imports.follow("job1", space, -1, 100)
    assert view is not None and view.updated_at == T0 + timedelta(seconds=20) and not view.finished
    assert store.imports.abandon("job1", space, T0 + timedelta(seconds=30), "stopped", T0 + timedelta(seconds=60))
    assert not store.imports.abandon("job1", space, T0 + timedelta(hours=1), "again", T0 + timedelta(hours=1))
    view = store.imports.follow("job1", space, -1, 100)
    assert view is not None and view.finished
    assert [(e.stage, e.message, e.finished) for e in view.events] == [("failed", "stopped", True)]
    assert not _publish(store, "job1", "the thread woke up")  # the job's end stands


def test_a_job_goes_with_its_space(store: Store) -> None:
    space = _space(store)
    store.imports.start("job1", space, T0, LIMITS)
    _publish(store, "job1", "read")
    store.spaces.erase(space, actor="test")
    space = _space(store)  # the same subject again: a fresh space
    assert store.imports.follow("job1", space, -1, 100) is None
    assert not _publish(store, "job1", "after the erasure")
