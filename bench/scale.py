"""Scale: recall latency, ingest throughput, file size and peak RSS at 10k / 100k / 1M records.

    python -m bench.scale [--sizes 10000,100000,1000000] [--out bench/results/scale.json]

Each size runs in a fresh subprocess (so peak RSS is that size's alone) on a fresh database:
1. ingest rate with the real ONNX embedder: `retain_many` of `--ingest` records (embedding included);
2. the rest of the space is bulk-loaded straight into the store with *synthetic* vectors: a pool of
   real MiniLM vectors of generated texts, each reused with gaussian noise and re-normalised
   (embedding a million texts would take most of an hour here); the results say so;
3. recall latency p50/p95 over `--queries` queries through the façade (query embedding included),
   after one warm-up query whose time (building the in-memory vector index) is reported separately.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import command_line, machine, now_iso, peak_rss_mb, timing, write_json

ROOT = Path(__file__).resolve().parent.parent


def run_one(size: int, ingest: int, n_queries: int, pool: int, db_url: str | None = None) -> dict[str, Any]:
    from bench.synthetic import memories, queries
    from forethought import Forethought, RetainItem, Status
    from forethought.domain.times import parse_time, utcnow
    from forethought.memory.writing import Draft, index_payload, new_record
    from forethought.store.base import ChangeSet, NewRecord

    tmp = Path(tempfile.mkdtemp(prefix="ft-scale-"))
    db: Path | str = db_url or tmp / "scale.db"
    out: dict[str, Any] = {"size": size, "store": "postgresql" if db_url else "sqlite"}
    with Forethought.open(db, embedder="minilm") as memory:
        embedder = memory.embedder
        assert embedder is not None
        texts = memories(size, seed=size)
        # 1. the real ingest path
        first = [next(texts) for _ in range(min(ingest, size))]
        start = time.perf_counter()
        memory.retain_many(memory.scope("generic", "bench"), [RetainItem(t) for t in first], batch_size=64)
        out["ingest_records_per_s"] = round(len(first) / (time.perf_counter() - start), 1)
        out["ingest_records"] = len(first)

        # 2. bulk load the rest with synthetic vectors
        rng = np.random.default_rng(size)
        pool_texts = list(memories(pool, seed=7))
        pool_vectors = embedder.embed(pool_texts)
        space_id = memory.space(memory.scope("generic", "bench")).id
        start = time.perf_counter()
        loaded = len(first)
        base_time = parse_time("2024-01-01")
        while loaded < size:
            batch = []
            for _ in range(min(5000, size - loaded)):
                text = next(texts)
                vec = pool_vectors[rng.integers(pool)] + rng.normal(0, 0.02, embedder.dim).astype(np.float32)
                vec /= np.linalg.norm(vec)
                record = new_record(
                    space_id,
                    Draft(kind="note", statement=text),
                    status=Status.ACTIVE,
                    occurred_at=base_time + timedelta(minutes=loaded),
                    now=utcnow(),
                )
                p = index_payload(record)
                batch.append(NewRecord(record, vec.astype(np.float32), p.terms, p.search_text))
                loaded += 1
            memory.store.records.apply(ChangeSet(space_id, inserts=batch))
        bulk_s = time.perf_counter() - start
        out["bulk_load_records_per_s"] = round((size - len(first)) / bulk_s, 1) if size > len(first) else None
        synthetic = f"{len(first)} real, the rest synthetic from a pool of {pool} real vectors"
        out["vectors"] = "real (MiniLM)" if size <= ingest else synthetic

        # 3. recall latency
        qs = queries(n_queries, size)
        start = time.perf_counter()
        memory.recall(memory.scope("generic", "bench"), "warm-up query about the PostgreSQL migration")
        out["first_recall_ms"] = round((time.perf_counter() - start) * 1000, 1)
        latencies = []
        stage: dict[str, list[float]] = {}
        for q in qs:
            start = time.perf_counter()
            result = memory.recall(memory.scope("generic", "bench"), q, k=10)
            latencies.append((time.perf_counter() - start) * 1000)
            for name, ms in result.timings_ms.items():
                stage.setdefault(name, []).append(ms)
        overall = timing(latencies)
        out["recall_p50_ms"], out["recall_p95_ms"], out["recall_mean_ms"] = (
            overall.p50_ms,
            overall.p95_ms,
            overall.mean_ms,
        )
        out["stage_p50_ms"] = {k: timing(v).p50_ms for k, v in stage.items()}
        out["stage_p95_ms"] = {k: timing(v).p95_ms for k, v in stage.items()}
    peak = peak_rss_mb()
    # 4. a new process's first recall: with a snapshot, the graph is loaded instead of rebuilt
    with Forethought.open(db, embedder="minilm") as reopened:
        assert reopened.embedder is not None
        reopened.embedder.embed_one("load the model first")  # the model load is not what this measures
        start = time.perf_counter()
        reopened.recall(reopened.scope("generic", "bench"), "warm-up query about the PostgreSQL migration")
        out["reopen_first_recall_ms"] = round((time.perf_counter() - start) * 1000, 1)
    if db_url:
        with Forethought.open(db_url, embedder=None) as sized:
            out["file_mb"] = sized.store.stats()["size_mb"]  # the whole database, indexes included
    else:
        out["file_mb"] = round(sum(p.stat().st_size for p in tmp.glob("scale.db*") if p.is_file()) / 1e6, 1)
    snapshots = tmp / "scale.db.vectors"
    out["snapshot_mb"] = (
        round(sum(p.stat().st_size for p in snapshots.glob("*")) / 1e6, 1) if snapshots.exists() else 0.0
    )
    out["peak_rss_mb"] = peak
    shutil.rmtree(tmp)
    return out


def _fresh_database(server: str, name: str) -> str:
    """A new, empty database `name` (with pgvector) on the server `server` is an admin URL of."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = server.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return url


def _plot(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r["size"] for r in results]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(sizes, [r["recall_p50_ms"] for r in results], marker="o", label="p50")
    ax.plot(sizes, [r["recall_p95_ms"] for r in results], marker="o", label="p95")
    ax.set_xscale("log")
    ax.set_xlabel("records in the space")
    ax.set_ylabel("recall latency (ms, query embedding included)")
    ax.set_title("Forethought recall latency vs space size (2 CPU cores)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--ingest", type=int, default=2000, help="records ingested through the real embedder")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--pool", type=int, default=5000, help="real vectors reused for the synthetic ones")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "scale.json"))
    parser.add_argument("--plot", default=str(ROOT / "docs" / "scale_latency.png"))
    parser.add_argument(
        "--server",
        default=None,
        help="a PostgreSQL server's admin URL (postgresql://user@host:port/postgres): each size runs on a new"
        " database there (scale_<size>, replaced if present) instead of a SQLite file",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # internal: run one size in this process
    parser.add_argument("--db-url", default=None, help=argparse.SUPPRESS)  # internal: that size's database
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.ingest, args.queries, args.pool, args.db_url)))
        return
    results = []
    for size in [int(s) for s in args.sizes.split(",")]:
        print(f"size {size:,} ...", file=sys.stderr, flush=True)
        target = [] if args.server is None else ["--db-url", _fresh_database(args.server, f"scale_{size}")]
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "bench.scale",
                "--one",
                str(size),
                "--ingest",
                str(args.ingest),
                "--queries",
                str(args.queries),
                "--pool",
                str(args.pool),
                *target,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            sys.exit(f"size {size} failed:\n{proc.stderr}")
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        print(json.dumps(results[-1]), file=sys.stderr)
    report = {"date": now_iso(), "machine": machine(), "command": command_line(), "results": results}
    write_json(Path(args.out), report)
    _plot(results, Path(args.plot))
    print(
        "| records | recall p50 | recall p95 | first recall (build) | first recall (new process) | ingest (ONNX) "
        "| bulk load | file | snapshot | peak RSS |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['size']:,} | {r['recall_p50_ms']} ms | {r['recall_p95_ms']} ms | {r['first_recall_ms']} ms "
            f"| {r['reopen_first_recall_ms']} ms | {r['ingest_records_per_s']}/s | {r['bulk_load_records_per_s']}/s "
            f"| {r['file_mb']} MB | {r['snapshot_mb']} MB | {r['peak_rss_mb']} MB |"
        )


if __name__ == "__main__":
    main()
