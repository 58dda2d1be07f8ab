"""One function per CLI command, each a thin call into the façade."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forethought.cli.progress import ProgressBar
from forethought.cli.render import hit_json, record_json, show_history, show_recall, show_record
from forethought.errors import InvalidInput, NotFound
from forethought.facade import Forethought

__all__ = ["run"]

Handler = Callable[[Forethought, argparse.Namespace], Any]


def _text(value: str) -> str:
    """The TEXT argument, or standard input for '-' (strict UTF-8)."""
    if value != "-":
        return value
    data = sys.stdin.buffer.read((1 << 20) + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("text: standard input is not valid UTF-8") from None


def _retain(memory: Forethought, args: argparse.Namespace) -> Any:
    result = memory.retain(
        args.space,
        _text(args.text),
        kind=args.kind,
        tags=args.tags,
        occurred_at=args.occurred_at,
        external_id=args.external_id,
        source="cli",
    )
    record = result.record
    if args.json:
        return {"id": record.id, "handle": record.handle, "created": result.created}
    return record.id if result.created else f"{record.id} (already retained; nothing new)"


def _recall(memory: Forethought, args: argparse.Namespace) -> Any:
    result = memory.recall(
        args.space,
        args.query,
        k=args.k,
        kinds=args.kinds,
        tags=args.tags,
        as_of=args.as_of,
        after=args.after,
        before=args.before,
        strategy=args.strategy,
        token_budget=args.budget,
    )
    return [hit_json(h) for h in result.hits] if args.json else show_recall(result)


def _supersede(memory: Forethought, args: argparse.Namespace) -> Any:
    record = memory.supersede(args.space, args.old_id, _text(args.text), occurred_at=args.occurred_at, reason=args.why)
    return {"id": record.id, "handle": record.handle} if args.json else record.id


def _retract(memory: Forethought, args: argparse.Namespace) -> Any:
    record = memory.retract(args.space, args.record_id, why=args.why)
    return record_json(record) if args.json else f"retracted {record.handle}"


def _forget(memory: Forethought, args: argparse.Namespace) -> Any:
    removed = memory.forget(args.space, args.record_id)
    return {"forgotten": removed} if args.json else f"forgot {removed} version(s)"


def _history(memory: Forethought, args: argparse.Namespace) -> Any:
    history = memory.history(args.space, args.record_id)
    if args.json:
        return {
            "record": history.record.id,
            "chain": [record_json(r) for r in history.chain],
            "events": [e.model_dump(mode="json") for e in history.events],
        }
    return show_history(history)


def _export(memory: Forethought, args: argparse.Namespace) -> Any:
    count = memory.export_jsonl(args.space, args.file)
    return {"exported": count, "file": args.file} if args.json else f"exported {count} records to {args.file}"


def _import(memory: Forethought, args: argparse.Namespace) -> Any:
    bar = None if args.json else ProgressBar("importing")
    count = memory.import_jsonl(args.space, args.file, progress=bar)
    return {"imported": count} if args.json else f"imported {count} records"


def _show(memory: Forethought, args: argparse.Namespace) -> Any:
    record = memory.get(args.space, args.record_id)
    return record_json(record) if args.json else show_record(record)


# Commands that may create the database; the others refuse to run on a path that does not exist.
WRITES_FIRST = frozenset({"retain", "import"})

HANDLERS: dict[str, Handler] = {
    "retain": _retain,
    "recall": _recall,
    "supersede": _supersede,
    "retract": _retract,
    "forget": _forget,
    "history": _history,
    "export": _export,
    "import": _import,
    "show": _show,
}


def run(args: argparse.Namespace) -> int:
    if args.command == "demo":
        from forethought.cli.demo import run_demo

        return run_demo(embedder=args.embedder)
    if args.command not in WRITES_FIRST and not Path(args.db).exists():
        raise NotFound(f"no database at {args.db} (retain or import something first, or pass --db)")
    with Forethought.open(args.db, embedder=args.embedder, actor="cli") as memory:
        output = HANDLERS[args.command](memory, args)
    if args.json:
        print(json.dumps(output, ensure_ascii=False))
    else:
        print(output)
    return 0
