"""HTTP ingest: the LoCoMo turns retained through a real `forethought serve`, one request per
record against the batch route, next to `retain_many` in-process.

    python -m bench.http_ingest [../shared/data/locomo/locomo_dev.json] [--embedder minilm|hashing] [--batch 200]

Each mode runs on a fresh database (one subject per conversation, every turn one memory
"Speaker: text" with its dia_id as external id); the server is started once per mode, its start
is not timed; one client on the same machine. Records a second, wall clock.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from tests.reliability.server import ServerProcess

from bench.common import command_line, machine, markdown_table, now_iso, write_json

DEFAULT_DATA = Path("../shared/data/locomo/locomo_dev.json")


def turns(path: Path) -> list[tuple[str, str, str]]:
    """(conversation id, dia_id, "Speaker: text") for every turn, in order."""
    out = []
    for conversation in json.loads(path.read_text("utf-8")):
        talk = conversation["conversation"]
        for key in sorted((k for k in talk if k.startswith("session_") and isinstance(talk[k], list)), key=_number):
            for turn in talk[key]:
                out.append((conversation["sample_id"], turn["dia_id"], f"{turn['speaker']}: {turn['text']}"))
    return out


def _number(key: str) -> int:
    return int(key.split("_")[1])


def in_process(data: list[tuple[str, str, str]], embedder: str) -> float:
    from forethought import Forethought, RetainItem

    with tempfile.TemporaryDirectory() as tmp, Forethought.open(Path(tmp) / "m.db", embedder=embedder) as memory:
        start = time.perf_counter()
        for sample in dict.fromkeys(s for s, _, _ in data):
            items = [RetainItem(t, external_id=d) for s, d, t in data if s == sample]
            memory.retain_many(memory.scope("generic", sample, workspace="bench"), items)
        return time.perf_counter() - start


def over_http(data: list[tuple[str, str, str]], embedder: str, batch: int | None) -> float:
    from forethought import Forethought

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        with Forethought.open(db, embedder=embedder) as memory:
            _, key = memory.create_api_key("bench", name="ingest")
        server = ServerProcess(db)
        server.env.update({"FORETHOUGHT_EMBEDDER": embedder, "FORETHOUGHT_SERVER_RATE": "0"})
        server.start(timeout_s=120)
        try:
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=120) as client:
                start = time.perf_counter()
                for sample in dict.fromkeys(s for s, _, _ in data):
                    mine = [(d, t) for s, d, t in data if s == sample]
                    url = f"/v1/apps/generic/subjects/{sample}/records"
                    if batch is None:
                        for d, t in mine:
                            _ok(client.post(url, json={"text": t, "external_id": d}))
                    else:
                        for i in range(0, len(mine), batch):
                            items = [{"text": t, "external_id": d} for d, t in mine[i : i + batch]]
                            _ok(client.post(url + "/batch", json={"items": items}))
                return time.perf_counter() - start
        finally:
            server.stop()


def _ok(response: httpx.Response) -> None:
    if response.status_code not in (200, 201):
        raise SystemExit(f"{response.status_code}: {response.text[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--out", type=Path, default=Path("bench/results/http_ingest.json"))
    args = parser.parse_args()
    data = turns(args.path)
    rows: list[dict[str, Any]] = []
    for mode, run in [
        ("in process (retain_many)", lambda: in_process(data, args.embedder)),
        ("HTTP, one request a record", lambda: over_http(data, args.embedder, None)),
        (f"HTTP, batches of {args.batch}", lambda: over_http(data, args.embedder, args.batch)),
    ]:
        seconds = run()
        rows.append(
            {"mode": mode, "records": len(data), "seconds": round(seconds, 1), "per_s": round(len(data) / seconds, 1)}
        )
        print(rows[-1], flush=True)
    write_json(
        args.out,
        {
            "date": now_iso(),
            "machine": machine(),
            "command": command_line(),
            "embedder": args.embedder,
            "results": rows,
        },
    )
    print(
        markdown_table(
            ["mode", "records", "seconds", "records/s"],
            [[r["mode"], str(r["records"]), str(r["seconds"]), str(r["per_s"])] for r in rows],
        )
    )


if __name__ == "__main__":
    main()
