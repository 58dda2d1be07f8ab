"""LimitStore: token buckets in the database, on every backend — spent atomically, refilled by
the clock, pruned when full or past the cap."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from forethought.store.base import Store
from forethought.store.contracts.limits import Verdict
from tests.store.conftest import BACKENDS

T0 = 1_800_000_000.0  # wall-clock seconds


def test_a_bucket_spends_its_burst_then_refuses_until_it_refills(store: Store) -> None:
    assert [store.limits.take("api:k1", 1.0, 3, T0).allowed for _ in range(4)] == [True, True, True, False]
    assert store.limits.take("api:k1", 1.0, 3, T0) == Verdict(False, 1)
    assert store.limits.peek("api:k1", 1.0, 3, T0 + 0.5) == Verdict(False, 1)
    assert store.limits.peek("api:k1", 1.0, 3, T0 + 1.0) == Verdict(True)
    assert store.limits.take("api:k1", 1.0, 3, T0 + 1.0).allowed
    assert not store.limits.take("api:k1", 1.0, 3, T0 + 1.0).allowed
    assert store.limits.take("api:k2", 1.0, 3, T0).allowed  # another name, its own bucket


def test_a_slow_rate_says_how_long_to_wait_and_a_clock_going_back_refills_nothing(store: Store) -> None:
    assert store.limits.take("auth:addr:10.0.0.1", 0.1, 1, T0).allowed
    assert store.limits.take("auth:addr:10.0.0.1", 0.1, 1, T0 + 2) == Verdict(False, 8)
    assert store.limits.take("auth:addr:10.0.0.1", 0.1, 1, T0 - 3600) == Verdict(False, 8)
    assert store.limits.take("auth:addr:10.0.0.1", 0.1, 1, T0 + 12).allowed


def test_a_bucket_never_refills_past_its_burst(store: Store) -> None:
    store.limits.take("login:k1", 1.0, 2, T0)
    assert [store.limits.take("login:k1", 1.0, 2, T0 + 3600).allowed for _ in range(3)] == [True, True, False]


def test_no_rate_means_no_limit_and_no_row(store: Store) -> None:
    assert all(store.limits.take("api:k1", 0, 1, T0).allowed for _ in range(5))
    assert store.limits.count() == 0


def test_pruning_forgets_full_buckets_then_the_least_recently_used(store: Store) -> None:
    for i in range(10):
        store.limits.take(f"auth:addr:10.0.0.{i}", 0.001, 2, T0 + i)
    store.limits.take("auth:addr:full", 100.0, 2, T0)  # full again a moment later
    assert store.limits.prune(T0 + 20, 100) == 10
    assert store.limits.prune(T0 + 20, 5) == 4  # nine tenths of the cap, the newest kept
    assert store.limits.take("auth:addr:10.0.0.9", 0.001, 2, T0 + 20).allowed
    assert not store.limits.take("auth:addr:10.0.0.9", 0.001, 2, T0 + 20).allowed  # still spent, still there
    assert store.limits.take("auth:addr:10.0.0.0", 0.001, 2, T0 + 20).allowed  # pruned: full again


@pytest.mark.parametrize("backend", ["sqlite-file", "postgresql"])
def test_processes_racing_for_one_bucket_spend_each_token_once(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Two stores on one database (as two server processes): 4 threads each take 10 times from a
    bucket of 20 that does not refill in the meantime; exactly 20 are allowed."""
    dsn = str(request.getfixturevalue("postgres_dsn")) if backend == "postgresql" else ""
    stores = [BACKENDS[backend](tmp_path, lambda: dsn) for _ in range(2)]
    allowed: list[bool] = []
    lock = threading.Lock()

    def spend(store: Store) -> None:
        for _ in range(10):
            verdict = store.limits.take("api:shared", 1e-6, 20, T0)
            with lock:
                allowed.append(verdict.allowed)

    threads = [threading.Thread(target=spend, args=(stores[i % 2],)) for i in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for store in stores:
            store.close()
    assert len(allowed) == 40 and allowed.count(True) == 20
