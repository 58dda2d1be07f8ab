"""HTTP load: throughput and latency of a real `forethought serve` under concurrent clients.

    python -m bench.load [--clients 1,4,16] [--paced 16@1,16@2] [--duration 30] [--records 3000]
                         [--db postgresql://... --workers N [--kill-one-after SECONDS]]

1. A fresh database is seeded in this process with `--records` synthetic memories (bench/synthetic.py)
   through the shipped embedder (MiniLM, the default), and an API key is made;
2. `forethought serve` starts on a free loopback port over it, with the default embedder, no
   language model (heuristic mode) and rate limiting off; timing starts once `/ready` is 200;
3. for each client count, that many threads (one httpx client each) run for `--duration` seconds
   in a closed loop — each sends its next request as soon as the last one answers: the server's
   saturation — then for each paced level (`--paced CLIENTS@RATE`) each client sends RATE requests
   a second as a Poisson process, latency counted from when each request was due (no coordinated
   omission): latency at a stated load. Both run a mix of retain, recall and governed turns
   (`--mix`, weights), all on the seeded subject;
4. per operation: requests, throughput, p50/p95/p99 latency (client side, wall clock) and errors
   (any status other than the operation's 200/201, or a transport error);
5. with `--kill-one-after SECONDS`, one worker process of `--workers N` (not the supervisor) is
   SIGKILLed that long into the first level; afterwards every record a retain was answered 201
   for is read back, and the acknowledged and lost counts are reported.

The clients run on the same machine as the server and share its cores; the figures say so.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from tests.reliability.server import ServerProcess

from bench.common import command_line, machine, markdown_table, now_iso, write_json
from bench.synthetic import PEOPLE, SYSTEMS, WHEN, memories, queries

ROOT = Path(__file__).resolve().parent.parent
SUBJECT = "/v1/apps/generic/subjects/load"
OPERATIONS = ("retain", "recall", "turn")
EXPECTED = {"retain": 201, "recall": 200, "turn": 200}


@dataclass
class Samples:
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    acknowledged: list[str] = field(default_factory=list)  # ids of the records a 201 answered with


def seed(db: Path | str, n: int) -> str:
    """`n` synthetic memories through the real embedder; returns a full API key."""
    from forethought import Forethought, RetainItem

    with Forethought.open(db) as memory:
        memory.retain_many(
            memory.scope("generic", "load", workspace="load"),
            [RetainItem(t) for t in memories(n, seed=11)],
            batch_size=64,
        )
        _, full = memory.create_api_key("load", name="bench")
    return full


def start_server(db: Path, *, args: tuple[str, ...] = (), **env: str) -> ServerProcess:
    """`forethought serve` over `db` with the shipped embedder (MiniLM), started and ready; its
    `ready_s` is the time from process start until `/ready` answered 200. Stop it when done."""
    server = ServerProcess(db, args=args)
    server.env.update({"FORETHOUGHT_EMBEDDER": "minilm", **env})  # not its hashing default
    try:
        return server.start(timeout_s=120)
    except BaseException:
        server.stop()
        raise


def _requests(rng: random.Random, worker: int, counter: list[int]) -> dict[str, Callable[[], dict[str, Any]]]:
    """The body of each operation's next request."""
    questions = queries(500, 3000, seed=worker + 100)

    def retain() -> dict[str, Any]:
        counter[0] += 1
        person, system = rng.choice(PEOPLE), rng.choice(SYSTEMS)
        return {"text": f"{person} noted that the {system} load test ran (run L-{worker}-{counter[0]})"}

    def recall() -> dict[str, Any]:
        return {"query": rng.choice(questions), "k": 10}

    def turn() -> dict[str, Any]:
        return {"message": f"What did we decide about the {rng.choice(SYSTEMS)} {rng.choice(WHEN)}?"}

    return {"retain": retain, "recall": recall, "turn": turn}


PATHS = {"retain": "/records", "recall": "/recall", "turn": "/turns"}


def _client(
    url: str,
    key: str,
    worker: int,
    mix: dict[str, float],
    stop_at: float,
    out: dict[str, Samples],
    lock: threading.Lock,
    rate: float = 0.0,
) -> None:
    """One client. `rate` 0: a closed loop (the next request as soon as the last answers). Else
    paced: requests arrive as a Poisson process of `rate` a second, and latency counts from when
    a request was due, so a slow answer that delays the next one is charged to the server."""
    rng = random.Random(worker)
    bodies = _requests(rng, worker, [0])
    names, weights = list(mix), list(mix.values())
    mine = {op: Samples() for op in OPERATIONS}
    due = time.perf_counter() + (rng.expovariate(rate) if rate else 0.0)
    with httpx.Client(base_url=url + SUBJECT, headers={"Authorization": f"Bearer {key}"}, timeout=60) as client:
        while time.perf_counter() < stop_at:
            op = rng.choices(names, weights)[0]
            body = bodies[op]()
            if rate:
                if due >= stop_at:
                    break
                time.sleep(max(0.0, due - time.perf_counter()))
                start = due
                due += rng.expovariate(rate)
            else:
                start = time.perf_counter()
            try:
                response = client.post(PATHS[op], json=body)
                status = str(response.status_code)
                if op == "retain" and response.status_code == 201:
                    mine[op].acknowledged.append(response.json()["record"]["id"])
            except httpx.TransportError as exc:
                status = type(exc).__name__
            mine[op].latencies_ms.append((time.perf_counter() - start) * 1000)
            mine[op].statuses[status] = mine[op].statuses.get(status, 0) + 1
            if status != str(EXPECTED[op]):
                mine[op].errors += 1
    with lock:
        for op, samples in mine.items():
            total = out[op]
            total.latencies_ms += samples.latencies_ms
            total.errors += samples.errors
            total.acknowledged += samples.acknowledged
            for status, count in samples.statuses.items():
                total.statuses[status] = total.statuses.get(status, 0) + count


def run_level(
    url: str, key: str, clients: int, duration_s: float, mix: dict[str, float], rate: float = 0.0
) -> dict[str, Any]:
    out = {op: Samples() for op in OPERATIONS}
    lock = threading.Lock()
    stop_at = time.perf_counter() + duration_s
    threads = [
        threading.Thread(target=_client, args=(url, key, i, mix, stop_at, out, lock, rate), daemon=True)
        for i in range(clients)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    ops: dict[str, Any] = {}
    for op, samples in out.items():
        lat = np.asarray(samples.latencies_ms or [0.0])
        p50, p95, p99 = (round(float(v), 1) for v in np.percentile(lat, [50, 95, 99]))
        ops[op] = {
            "requests": len(samples.latencies_ms),
            "per_s": round(len(samples.latencies_ms) / elapsed, 1),
            "p50_ms": p50,
            "p95_ms": p95,
            "p99_ms": p99,
            "errors": samples.errors,
            "statuses": samples.statuses,
        }
    return {
        "acknowledged": out["retain"].acknowledged,
        "clients": clients,
        "rate_per_client": rate or None,
        "seconds": round(elapsed, 1),
        "requests_per_s": round(sum(o["requests"] for o in ops.values()) / elapsed, 1),
        "errors": sum(o["errors"] for o in ops.values()),
        "operations": ops,
    }


def _kill_one(server: ServerProcess, killed: list[int]) -> None:
    """SIGKILL the newest worker process (not the supervisor), mid-load."""
    workers = server.workers()
    if workers:
        os.kill(workers[-1], signal.SIGKILL)
        killed.append(workers[-1])


def _count_lost(
    url: str, key: str, levels: list[dict[str, Any]], killer: threading.Timer | None
) -> dict[str, Any] | None:
    """After a kill: every record a retain was acknowledged for (201), read back; how many are gone."""
    if killer is None:
        return None
    killer.join()
    acknowledged = [i for level in levels for i in level["acknowledged"]]
    with httpx.Client(base_url=url + SUBJECT, headers={"Authorization": f"Bearer {key}"}, timeout=60) as client:
        lost = sum(client.get(f"/records/{record_id}").status_code != 200 for record_id in acknowledged)
    killed = killer.args[1]
    return {"killed_pid": killed[0] if killed else None, "acknowledged": len(acknowledged), "lost": lost}


def measure_ready(runs: int) -> dict[str, Any]:
    """`forethought serve --demo` from process start until `/ready` is 200, on a fresh database each run."""
    seconds = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="ft-ready-") as tmp:
            server = start_server(Path(tmp) / "demo.db", args=("--demo",))
            server.stop()
            seconds.append(round(server.ready_s, 2))
    return {"runs": seconds, "median_s": round(float(np.median(seconds)), 2), "max_s": max(seconds)}


def _level_name(level: dict[str, Any]) -> str:
    rate = level.get("rate_per_client")
    return str(level["clients"]) if not rate else f"{level['clients']} × {rate:g}/s"


def table(levels: list[dict[str, Any]]) -> str:
    rows = [
        [
            _level_name(level),
            op,
            str(o["requests"]),
            f"{o['per_s']:.1f}",
            f"{o['p50_ms']:.1f}",
            f"{o['p95_ms']:.1f}",
            f"{o['p99_ms']:.1f}",
            str(o["errors"]),
        ]
        for level in levels
        for op, o in level["operations"].items()
    ]
    header = ["clients", "operation", "requests", "per s", "p50 ms", "p95 ms", "p99 ms", "errors"]
    return markdown_table(header, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="1,4,16", help="client counts, comma separated")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds per client count")
    parser.add_argument(
        "--paced",
        default="16@1,16@2",
        help="paced levels CLIENTS@RATE (requests a second per client, Poisson arrivals), comma separated",
    )
    parser.add_argument("--records", type=int, default=3000, help="memories seeded before the run")
    parser.add_argument("--mix", default="retain:2,recall:6,turn:2", help="operation weights")
    parser.add_argument("--ready-runs", type=int, default=5, help="runs of `serve --demo` to time readiness (0: none)")
    parser.add_argument(
        "--server-env", action="append", default=[], metavar="NAME=VALUE", help="extra server environment (repeatable)"
    )
    parser.add_argument("--db", default=None, help="an empty database to run on (a postgresql:// URL)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (`serve --workers N`)")
    parser.add_argument(
        "--kill-one-after",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="SIGKILL one worker process this long into the first level, then count acknowledged retains lost",
    )
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "load.json"))
    a = parser.parse_args()
    mix = {name: float(weight) for name, weight in (part.split(":") for part in a.mix.split(","))}
    levels_wanted = [(int(c), 0.0) for c in a.clients.split(",") if c]
    for part in filter(None, a.paced.split(",")):
        clients, rate = part.split("@")
        levels_wanted.append((int(clients), float(rate)))

    tmp = Path(tempfile.mkdtemp(prefix="ft-load-"))
    db = tmp / "load.db"
    start = time.perf_counter()
    key = seed(a.db or db, a.records)
    seeded_s = round(time.perf_counter() - start, 1)
    print(f"seeded {a.records} memories in {seeded_s} s", flush=True)
    server_env = dict(item.split("=", 1) for item in a.server_env)
    if a.db:
        server_env["FORETHOUGHT_DB"] = a.db  # `db` then only names where the server's log goes
    server = start_server(db, args=("--workers", str(a.workers)), **server_env)
    try:
        ready_s = round(server.ready_s, 2)
        print(f"server ready in {ready_s} s (MiniLM loaded); {a.duration:g} s per level", flush=True)
        killer = threading.Timer(a.kill_one_after, _kill_one, args=(server, [])) if a.kill_one_after else None
        if killer is not None:
            killer.start()
        levels = []
        for clients, rate in levels_wanted:
            level = run_level(server.url, key, clients, a.duration, mix, rate)
            levels.append(level)
            print(
                f"{_level_name(level):>10} clients: {level['requests_per_s']} req/s, {level['errors']} errors",
                flush=True,
            )
        kill = _count_lost(server.url, key, levels, killer)
    finally:
        server.stop()
    ready = measure_ready(a.ready_runs) if a.ready_runs else None
    result = {
        "benchmark": "load",
        "generated_at": now_iso(),
        "command": command_line(),
        "machine": machine(),
        "setup": {
            "records_seeded": a.records,
            "seed_seconds": seeded_s,
            "embedder": "minilm (the default)",
            "model": "none (heuristic mode)",
            "rate_limit": "off",
            "duration_s_per_level": a.duration,
            "mix": mix,
            "server_ready_s": ready_s,
            "server_env": {k: v for k, v in server_env.items() if k != "FORETHOUGHT_DB"},
            "store": "postgresql" if a.db else "sqlite",
            "workers": a.workers,
            "clients_on_same_machine": True,
        },
        "levels": [{k: v for k, v in level.items() if k != "acknowledged"} for level in levels],
        "errors": sum(level["errors"] for level in levels),
        "kill_one_worker": kill,
        "demo_ready": ready,
    }
    write_json(Path(a.out), result)
    print()
    print(table(levels))
    if kill:
        print(f"\nkilled worker {kill['killed_pid']}: {kill['acknowledged']} retains acknowledged, {kill['lost']} lost")
    if ready:
        print(f"\n`forethought serve --demo` to /ready 200: median {ready['median_s']} s, runs {ready['runs']}")
    print(f"\nwritten to {a.out}")


if __name__ == "__main__":
    main()
