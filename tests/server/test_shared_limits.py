"""Rate limits with several server processes on one database: the budgets are the database's, so
two applications over one database (as two workers) spend from one bucket per key, and a failed
key or login counts wherever it was tried. One process on a SQLite file counts in memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from forethought import Forethought
from forethought.embed.hashing import HashingEmbedder
from forethought.server import ServerSettings, Services, create_app
from forethought.server.ratelimit import RateLimiter, StoredRateLimiter


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, db_path: Path) -> str | Path:
    return db_path if request.param == "sqlite" else str(request.getfixturevalue("postgres_dsn"))


@pytest.fixture
def two(target: str | Path) -> Iterator[tuple[Forethought, Forethought]]:
    """Two façades on one database, as two worker processes open it."""
    with (
        Forethought.open(target, embedder=HashingEmbedder()) as a,
        Forethought.open(target, embedder=HashingEmbedder()) as b,
    ):
        yield a, b


def _as(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_two_workers_spend_one_budget_per_key(two: tuple[Forethought, Forethought]) -> None:
    settings = ServerSettings(rate_per_second=0.001, rate_burst=4, workers=2)
    _, key = two[0].create_api_key("acme")
    clients = [TestClient(create_app(m, settings), raise_server_exceptions=False) for m in two]
    codes = [clients[i % 2].get("/v1/workspace", headers=_as(key)).status_code for i in range(7)]
    assert codes == [200] * 4 + [429] * 3  # each worker alone would have allowed 4
    refused = clients[0].get("/v1/workspace", headers=_as(key))
    assert refused.headers["retry-after"].isdigit() and int(refused.headers["retry-after"]) >= 1
    for client in clients:
        client.close()


def test_failed_keys_count_on_every_worker(two: tuple[Forethought, Forethought]) -> None:
    settings = ServerSettings(rate_per_second=0, auth_failure_rate=0.001, auth_failure_burst=3, workers=2)
    clients = [TestClient(create_app(m, settings), raise_server_exceptions=False) for m in two]
    codes = [clients[i % 2].get("/v1/workspace", headers=_as(f"ft_{i:012x}_x")).status_code for i in range(5)]
    assert codes == [401] * 3 + [429] * 2
    for client in clients:
        client.close()


def test_where_the_buckets_live(two: tuple[Forethought, Forethought], target: str | Path) -> None:
    """Memory for one process on a file (no write per request); the database otherwise."""
    alone = Services(two[0], ServerSettings())
    shared = Services(two[0], ServerSettings(workers=3))
    server = isinstance(target, str)
    assert isinstance(alone.limiter, StoredRateLimiter if server else RateLimiter)
    assert isinstance(alone.guard.failures, StoredRateLimiter if server else RateLimiter)
    assert isinstance(shared.limiter, StoredRateLimiter) and isinstance(shared.guard.logins, StoredRateLimiter)


def test_no_key_material_is_kept_in_a_bucket_name(two: tuple[Forethought, Forethought]) -> None:
    settings = ServerSettings(rate_per_second=5, auth_failure_rate=0.001, workers=2)
    key, full = two[0].create_api_key("acme")
    with TestClient(create_app(two[0], settings), raise_server_exceptions=False) as client:
        assert client.get("/v1/workspace", headers=_as(full)).status_code == 200
        assert client.get("/v1/workspace", headers=_as(f"ft_{key.id}_notthesecret")).status_code == 401
    with two[0].store.raw() as conn:
        names = sorted(str(row[0]) for row in conn.execute("SELECT name FROM rate_buckets").fetchall())
    assert names == sorted([f"api:{key.id}", "auth:addr:testclient", f"auth:key:{key.id}"])
    assert not any(full.rsplit("_", 1)[1] in n or "notthesecret" in n for n in names)
