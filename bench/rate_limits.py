"""What a rate-limit check costs: one `take` on each kind of bucket, as a request pays it.

    python -m bench.rate_limits [--takes 5000]

In memory (`RateLimiter`), in a SQLite file and in PostgreSQL (`StoredRateLimiter` over
`store.limits`; a throwaway PostgreSQL 15 server started by tests/pg_server.py, durability off as
in the tests, so the PostgreSQL figure is a floor: a production server also waits for its WAL
flush). One thread, 1,000 API key names spent round-robin, nothing else running. Results in
`bench/results/rate_limits.json`.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tests.pg_server import PostgresServer

from bench.common import Stopwatch, command_line, machine, markdown_table, now_iso, write_json
from forethought.server.ratelimit import Limiter, RateLimiter, StoredRateLimiter
from forethought.store.postgres import PostgresStore
from forethought.store.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parent.parent


def measure(limits: Limiter, takes: int) -> dict[str, float]:
    watch = Stopwatch()
    for i in range(takes):
        with watch.time():
            limits.take(f"k{i % 1000:04d}")
    summary = watch.summary()
    return {"p50_ms": summary.p50_ms, "p95_ms": summary.p95_ms, "mean_ms": summary.mean_ms}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--takes", type=int, default=5000)
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/rate_limits.json")
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {"memory": measure(RateLimiter(20.0, 40), args.takes)}
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = SQLiteStore(Path(tmp) / "limits.db")
        results["sqlite file"] = measure(StoredRateLimiter(sqlite.limits, "api:", 20.0, 40), args.takes)
        sqlite.close()
    with PostgresServer() as server:
        postgres = PostgresStore(server.create_database())
        results["postgresql"] = measure(StoredRateLimiter(postgres.limits, "api:", 20.0, 40), args.takes)
        postgres.close()
    rows = [[name, f"{r['p50_ms']:.3f}", f"{r['p95_ms']:.3f}", f"{r['mean_ms']:.3f}"] for name, r in results.items()]
    print(markdown_table(["buckets", "take p50 ms", "p95 ms", "mean ms"], rows))
    write_json(args.out, {"when": now_iso(), "command": command_line(), "machine": machine(), "results": results})


if __name__ == "__main__":
    main()
