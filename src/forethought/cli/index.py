"""`forethought index sync|reconcile`: keep the recall engine's outside index (Hindsight) in step.

`sync` sends the changes queued with every write (up to --limit); `reconcile` compares every
record with the index and fixes drift. With the built-in engine there is nothing to do.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import asdict

from forethought.cli.context import Context, Output

__all__ = ["index", "register"]


def index(ctx: Context) -> Output:
    memory = ctx.memory()
    if ctx.args.action == "sync":
        report = memory.sync_index(limit=ctx.args.limit)
        text = f"{memory.engine.name}: {report.done} synced, {report.failed} failed, {report.pending} pending"
        return Output(asdict(report), text, code=0 if report.failed == 0 else 5)
    reconciled = memory.reconcile_index()
    text = (
        f"{memory.engine.name}: {reconciled.checked} records checked, {reconciled.added} added,"
        f" {reconciled.retagged} retagged, {reconciled.deleted} deleted"
    )
    return Output(asdict(reconciled), text)


def register(add: Callable[..., argparse.ArgumentParser]) -> None:
    p = add("index", "the recall engine's outside index (Hindsight): sync | reconcile", group=True)
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True
    q = add("sync", "send the record changes queued for the index", parent=actions, space=False)
    q.add_argument("--limit", type=int, default=1000, help="at most this many changes (default: 1000)")
    add("reconcile", "compare every record with the index and fix what drifted", parent=actions, space=False)
