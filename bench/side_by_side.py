"""One side-by-side LoCoMo run: SQLite, PostgreSQL, raw Hindsight and Forethought on the Hindsight engine.

    python -m bench.side_by_side [PATH] [--out bench/results/side_by_side.json] [--limit-conversations N]
        [--backends sqlite,postgresql,hindsight-raw,hindsight-engine] [--graph]

The same data (`bench.locomo`'s loader, default the five development conversations), embedder
(MiniLM, in the bench process; Hindsight embeds through it over loopback, `EmbeddingServer`) and
machine for every backend. Each backend runs in its own subprocess, on its own throwaway servers
(PostgreSQL 15 by `tests/pg_server.py`, durability off; Hindsight by
`forethought.engines.hindsight.local`, offline: no LLM, RRF), so each one's peak memory is its own:

- `sqlite`, `postgresql`: the built-in engine, the product's ingest (window2+date) and the default
  strategy (balanced), as `bench.locomo` measures them;
- `hindsight-raw`: each turn retained straight into a bank, recalled straight from it;
- `hindsight-engine`: the product's ingest on a SQLite store, synced to Hindsight, recalled through
  `HindsightEngine` (see `bench.locomo_hindsight`).

Graph retrieval is off in the Hindsight banks unless `--graph`. Reported per backend:
recall_any@10, NDCG@10, session-level recall@10 (overall, held-out, per category), ingest turns/s
(embedding and, for the engine, the sync to Hindsight included), recall p50/p95 (the whole call),
and the peak RSS (VmHWM) of every process involved: the bench process, each PostgreSQL server
process alive at the end (postmaster and backends; shared buffers count in each), the Hindsight
server and its children.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tests.pg_server import PostgresServer

from bench.common import command_line, machine, markdown_table, now_iso, timing, write_json
from bench.locomo import (
    DEFAULT_DATA,
    INGEST_MODES,
    MAIN_INGEST,
    Answer,
    Conversation,
    IngestFigures,
    Variant,
    ask,
    breakdown,
    ingest,
    load,
)
from bench.locomo_hindsight import RawHindsight, ask_raw, bank_settings, ingest_engine, ingest_raw
from bench.procmem import ProcessPeak, peak_mb, tree_peaks
from forethought import Forethought
from forethought.embed.base import Embedder
from forethought.engines.hindsight import HindsightEngine, HttpHindsight
from forethought.engines.hindsight.local import LocalHindsight
from forethought.plugins import registry
from forethought.recall import PRESETS

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = ("sqlite", "postgresql", "hindsight-raw", "hindsight-engine")
HINDSIGHT_VENV = ROOT / ".hindsight-venv"
DEFAULT = Variant("balanced (default)", MAIN_INGEST, PRESETS["balanced"])
LABELS = {
    "sqlite": ("Forethought", "SQLite", "built-in"),
    "postgresql": ("Forethought", "PostgreSQL", "built-in"),
    "hindsight-raw": ("raw Hindsight", "Hindsight (PostgreSQL)", "Hindsight"),
    "hindsight-engine": ("Forethought", "SQLite", "Hindsight"),
}


def postmaster_pid(server: PostgresServer) -> int:
    return int((server.data / "postmaster.pid").read_text().split()[0])


class Run:
    """The servers of one backend's run, and the peaks of their processes at the end."""

    def __init__(self, stack: ExitStack, embedder: Embedder) -> None:
        self.stack = stack
        self.embedder = embedder
        self.postgres: PostgresServer | None = None
        self.hindsight: LocalHindsight | None = None

    def start_postgres(self) -> PostgresServer:
        self.postgres = self.stack.enter_context(PostgresServer())
        return self.postgres

    def start_hindsight(self) -> LocalHindsight:
        dsn = self.start_postgres().create_database("hindsight")
        server = LocalHindsight(dsn, self.embedder, venv=HINDSIGHT_VENV, parent_env=os.environ)
        self.hindsight = self.stack.enter_context(server)
        return self.hindsight

    def peaks(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[ProcessPeak]] = {"bench": [p for p in [peak_mb(os.getpid())] if p]}
        if self.postgres is not None:
            found["postgresql"] = tree_peaks(postmaster_pid(self.postgres))
        if self.hindsight is not None:
            found["hindsight"] = tree_peaks(self.hindsight.pid)
        return {k: [asdict(p) for p in v] for k, v in found.items()}


@contextmanager
def opened(run: Run, backend: str, tmp: Path) -> Iterator[Forethought | RawHindsight]:
    if backend == "sqlite":
        with Forethought.open(tmp / "locomo.db", embedder=run.embedder) as memory:
            yield memory
    elif backend == "postgresql":
        dsn = run.start_postgres().create_database("locomo")
        with Forethought.open(dsn, embedder=run.embedder) as memory:
            yield memory
    elif backend == "hindsight-raw":
        raw = RawHindsight(run.start_hindsight().base_url)
        try:
            yield raw
        finally:
            raw.close()
    else:
        api = HttpHindsight(run.start_hindsight().base_url, bank="forethought-locomo", timeout_s=120)
        api.ensure_bank()
        api.configure(bank_settings(graph=False))
        with Forethought.open(tmp / "locomo.db", embedder=run.embedder, engine=HindsightEngine(api)) as memory:
            yield memory
        api.close()


def run_one(backend: str, conversations: Sequence[Conversation], graph: bool) -> dict[str, Any]:
    embedder: Embedder = registry().embedder("minilm")()
    embedder.embed_one("load the model before the clock starts")
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="ft-side-") as tmp:
        run = Run(stack, embedder)
        with opened(run, backend, Path(tmp)) as target:
            figures: IngestFigures
            answers: list[Answer]
            if isinstance(target, RawHindsight):
                target.graph = graph
                figures = ingest_raw(target, conversations)
                answers = ask_raw(target, conversations)
            else:
                mode = INGEST_MODES[DEFAULT.ingest]
                figures = (ingest_engine if backend == "hindsight-engine" else ingest)(target, conversations, mode)
                answers = ask(target, DEFAULT, conversations)
            peaks = run.peaks()  # while every server and connection still lives
            started = run.hindsight.started_in_s if run.hindsight else None
    who, store, engine = LABELS[backend]
    return {
        "backend": backend,
        "system": who,
        "store": store,
        "recall_engine": engine,
        "ingest": asdict(figures),
        "strategy": "Hindsight recall" if backend == "hindsight-raw" else DEFAULT.label,
        "graph_retrieval": graph if backend.startswith("hindsight") else None,
        "hindsight_started_in_s": round(started, 1) if started else None,
        "latency": asdict(timing([a.latency_ms for a in answers])),
        "scores": breakdown(answers),
        "processes": peaks,
    }


def _peak_cell(processes: dict[str, list[dict[str, Any]]], key: str) -> str:
    found = processes.get(key)
    if not found:
        return "-"
    total = sum(p["peak_rss_mb"] for p in found)
    return f"{total:,.0f} ({len(found)})" if len(found) > 1 else f"{total:,.0f}"


def table(results: Sequence[dict[str, Any]]) -> str:
    header = [
        "system",
        "store",
        "recall engine",
        "any@10",
        "NDCG@10",
        "session R@10",
        "held-out any@10 / NDCG@10",
        "ingest turns/s",
        "recall p50 ms",
        "recall p95 ms",
        "peak RSS MB: bench",
        "PostgreSQL (procs)",
        "Hindsight (procs)",
    ]
    rows = []
    for r in results:
        overall, held = r["scores"]["all"]["overall"], r["scores"].get("held_out", {}).get("overall")
        rows.append(
            [
                r["system"],
                r["store"],
                r["recall_engine"],
                f"{overall['recall_any_10']:.3f}",
                f"{overall['ndcg_10']:.3f}",
                f"{overall['session_recall_10']:.3f}",
                f"{held['recall_any_10']:.3f} / {held['ndcg_10']:.3f}" if held else "-",
                f"{r['ingest']['turns_per_s']:.1f}",
                f"{r['latency']['p50_ms']:.1f}",
                f"{r['latency']['p95_ms']:.1f}",
                _peak_cell(r["processes"], "bench"),
                _peak_cell(r["processes"], "postgresql"),
                _peak_cell(r["processes"], "hindsight"),
            ]
        )
    return markdown_table(header, rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_DATA, help="a LoCoMo-format JSON file")
    parser.add_argument("--out", type=Path, default=Path("bench/results/side_by_side.json"))
    parser.add_argument("--limit-conversations", type=int, default=None, metavar="N")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--graph", action="store_true", help="keep Hindsight's graph retrieval on")
    parser.add_argument("--one", choices=BACKENDS, help=argparse.SUPPRESS)  # internal: one backend, here
    args = parser.parse_args(argv)
    if not args.path.exists():
        sys.exit(f"no LoCoMo file at {args.path} (give its path as the first argument)")
    conversations = load(args.path)[: args.limit_conversations]
    if args.one:
        print(json.dumps(run_one(args.one, conversations, args.graph)))
        return
    results = []
    for backend in args.backends.split(","):
        print(f"{backend} ...", file=sys.stderr, flush=True)
        command = [sys.executable, "-m", "bench.side_by_side", str(args.path), "--one", backend]
        if args.limit_conversations is not None:
            command += ["--limit-conversations", str(args.limit_conversations)]
        if args.graph:
            command.append("--graph")
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            sys.exit(f"{backend} failed:\n{proc.stderr[-4000:]}")
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        print(json.dumps({k: results[-1][k] for k in ("backend", "ingest", "latency")}), file=sys.stderr)
    report = {
        "benchmark": "locomo-side-by-side",
        "date": now_iso(),
        "command": command_line(),
        "machine": machine(),
        "data": {
            "path": str(args.path),
            "conversations": [c.sample_id for c in conversations],
            "turns": sum(len(c.turns) for c in conversations),
            "questions": sum(len(c.questions) for c in conversations),
        },
        "embedder": "minilm",
        "results": results,
    }
    write_json(args.out, report)
    print(table(results))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
