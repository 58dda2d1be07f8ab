"""LoginStore: browser sessions in the database, on every backend — caps kept in the creating
transaction, ended sessions never returned, notices queued per session."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest

from forethought.domain.times import parse_time
from forethought.store.base import Store
from forethought.store.contracts.logins import Login, LoginLimits, LoginsFull
from tests.store.conftest import BACKENDS

T0 = parse_time("2026-05-01T09:00:00Z")
LIMITS = LoginLimits(idle_s=3600, max_age_s=86400, per_key=3, per_workspace=5, total=8)


def login(token: str, key_id: str = "k1", workspace: str = "acme", *, minutes: int = 0) -> Login:
    at = T0 + timedelta(minutes=minutes)
    return Login(f"hash-{token}", key_id, workspace, f"csrf-{token}", at, at)


def test_a_session_is_found_by_its_hash_until_dropped(store: Store) -> None:
    store.logins.create(login("a"), LIMITS)
    found = store.logins.get("hash-a", T0 + timedelta(minutes=5), LIMITS)
    assert found is not None and (found.key_id, found.workspace, found.csrf) == ("k1", "acme", "csrf-a")
    assert store.logins.get("hash-b", T0, LIMITS) is None
    store.logins.drop("hash-a")
    store.logins.drop("hash-a")  # twice is fine
    assert store.logins.get("hash-a", T0, LIMITS) is None


def test_an_idle_or_too_old_session_is_gone(store: Store) -> None:
    store.logins.create(login("idle"), LIMITS)
    assert store.logins.get("hash-idle", T0 + timedelta(seconds=LIMITS.idle_s + 1), LIMITS) is None
    store.logins.create(login("busy"), LIMITS)
    now = T0
    while now + timedelta(minutes=50) < T0 + timedelta(seconds=LIMITS.max_age_s):
        now += timedelta(minutes=50)  # seen often enough never to be idle
        assert store.logins.get("hash-busy", now, LIMITS) is not None
    assert store.logins.get("hash-busy", T0 + timedelta(seconds=LIMITS.max_age_s + 1), LIMITS) is None
    assert store.logins.count(T0 + timedelta(days=2), LIMITS) == 0


def test_a_key_at_its_cap_gives_up_its_own_oldest_session(store: Store) -> None:
    for i in range(4):
        store.logins.create(login(f"s{i}", minutes=i), LIMITS)
    now = T0 + timedelta(minutes=10)
    assert store.logins.get("hash-s0", now, LIMITS) is None
    assert all(store.logins.get(f"hash-s{i}", now, LIMITS) is not None for i in (1, 2, 3))
    assert store.logins.count(now, LIMITS, key_id="k1") == 3


def test_a_full_workspace_refuses_a_key_without_sessions_and_never_evicts_another_key(store: Store) -> None:
    for i in range(3):
        store.logins.create(login(f"a{i}", "ka", minutes=i), LIMITS)
    for i in range(2):
        store.logins.create(login(f"b{i}", "kb", minutes=i), LIMITS)
    with pytest.raises(LoginsFull) as full:
        store.logins.create(login("c0", "kc"), LIMITS)
    assert full.value.workspace is True
    store.logins.create(login("b2", "kb", minutes=9), LIMITS)  # kb makes room from its own
    now = T0 + timedelta(minutes=10)
    assert store.logins.count(now, LIMITS, workspace="acme") == 5
    assert store.logins.count(now, LIMITS, key_id="ka") == 3 and store.logins.get("hash-b0", now, LIMITS) is None
    store.logins.create(login("x0", "kx", "globex"), LIMITS)  # another workspace has room of its own
    with pytest.raises(LoginsFull) as everything:
        for i in range(3):
            store.logins.create(login(f"y{i}", f"ky{i}", "initech"), LIMITS)
    assert everything.value.workspace is False  # the store's total cap, not a workspace's


def test_notices_are_queued_per_session_and_taken_once(store: Store) -> None:
    store.logins.create(login("a"), LIMITS)
    store.logins.create(login("b", "k2"), LIMITS)
    store.logins.add_notice("hash-a", "Approved 3 memories.", "ok")
    store.logins.add_notice("hash-a", "One was refused.", "error")
    store.logins.add_notice("hash-gone", "nobody hears this", "ok")
    assert store.logins.take_notices("hash-b") == []
    assert store.logins.take_notices("hash-a") == [("Approved 3 memories.", "ok"), ("One was refused.", "error")]
    assert store.logins.take_notices("hash-a") == []


@pytest.mark.parametrize("backend", ["sqlite-file", "postgresql"])  # each thread its own connection
def test_logins_racing_for_one_key_never_pass_its_cap(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    store = BACKENDS[backend](tmp_path, lambda: str(request.getfixturevalue("postgres_dsn")))
    errors: list[BaseException] = []

    def log_in(i: int) -> None:
        try:
            store.logins.create(login(f"r{i}", minutes=i % 7), LIMITS)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=log_in, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == []
        assert store.logins.count(T0 + timedelta(minutes=10), LIMITS, key_id="k1") == LIMITS.per_key
    finally:
        store.close()
