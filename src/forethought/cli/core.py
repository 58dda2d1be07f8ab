"""The core commands: retain, recall, show, supersede, retract, forget, history, export, import."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from forethought.cli.context import Context, Output, read_text_arg
from forethought.cli.progress import ProgressBar
from forethought.cli.render import hit_json, record_json, show_history, show_recall, show_record
from forethought.errors import InvalidInput

__all__ = ["COMMANDS", "register"]

Add = Callable[[str, str], argparse.ArgumentParser]


def retain(ctx: Context) -> Output:
    a = ctx.args
    result = ctx.memory(create=True).retain(
        ctx.scope,
        read_text_arg(a.text),
        kind=a.kind,
        tags=a.tags,
        occurred_at=a.occurred_at,
        external_id=a.external_id,
        source="cli",
    )
    r = result.record
    note = "" if result.created else " (already retained; nothing new)"
    return Output({"id": r.id, "handle": r.handle, "created": result.created}, f"{r.id}{note}")


def recall(ctx: Context) -> Output:
    a = ctx.args
    result = ctx.memory().recall(
        ctx.scope,
        a.query,
        k=a.k,
        kinds=a.kinds,
        tags=a.tags,
        as_of=a.as_of,
        after=a.after,
        before=a.before,
        strategy=a.strategy,
        token_budget=a.budget,
    )
    return Output([hit_json(h) for h in result.hits], show_recall(result))


def show(ctx: Context) -> Output:
    record = ctx.memory().get(ctx.scope, ctx.args.record_id)
    return Output(record_json(record), show_record(record))


def supersede(ctx: Context) -> Output:
    a = ctx.args
    record = ctx.memory().supersede(ctx.scope, a.old_id, read_text_arg(a.text), occurred_at=a.occurred_at, reason=a.why)
    return Output({"id": record.id, "handle": record.handle}, record.id)


def retract(ctx: Context) -> Output:
    record = ctx.memory().retract(ctx.scope, ctx.args.record_id, why=ctx.args.why)
    return Output(record_json(record), f"retracted {record.handle}")


def forget(ctx: Context) -> Output:
    memory = ctx.memory()
    removed = memory.forget(ctx.scope, ctx.args.record_id, redact_sources=ctx.args.redact_sources)
    purged = not memory.store.erasure_pending() or memory.store.finish_erasure()
    if purged:
        return Output({"forgotten": removed, "purged": True}, f"forgot {removed} version(s)")
    return Output(
        {"forgotten": removed, "purged": False},
        f"forgot {removed} version(s); warning: another process is reading the database, so the erased"
        " text is still on disk until it lets go; the next write to the database after that removes it",
    )


def _confirmed(ctx: Context, what: str) -> None:
    if not ctx.args.yes:
        raise InvalidInput(f"{what} cannot be undone: add --yes to confirm")


def delete_session(ctx: Context) -> Output:
    _confirmed(ctx, "deleting a session")
    turns = ctx.memory().delete_session(ctx.scope, ctx.args.session_id)
    return Output({"deleted_turns": turns}, f"deleted the session and its {turns} turn(s)")


def erase(ctx: Context) -> Output:
    _confirmed(ctx, f"erasing {ctx.scope.key.subject_id!r} and everything it holds")
    removed = ctx.memory().erase_space(ctx.scope)
    return Output({"erased_records": removed}, f"erased {ctx.scope.key.subject_id} ({removed} record(s))")


def history(ctx: Context) -> Output:
    h = ctx.memory().history(ctx.scope, ctx.args.record_id)
    data = {
        "record": h.record.id,
        "chain": [record_json(r) for r in h.chain],
        "events": [e.model_dump(mode="json") for e in h.events],
    }
    return Output(data, show_history(h))


def export(ctx: Context) -> Output:
    count = ctx.memory().export_jsonl(ctx.scope, ctx.args.file)
    return Output({"exported": count, "file": ctx.args.file}, f"exported {count} records to {ctx.args.file}")


def import_(ctx: Context) -> Output:
    bar = None if ctx.args.json else ProgressBar("importing")
    count = ctx.memory(create=True).import_jsonl(ctx.scope, ctx.args.file, progress=bar)
    return Output({"imported": count}, f"imported {count} records")


COMMANDS: dict[str, Callable[[Context], Output]] = {
    "retain": retain,
    "recall": recall,
    "show": show,
    "supersede": supersede,
    "retract": retract,
    "forget": forget,
    "delete-session": delete_session,
    "erase": erase,
    "history": history,
    "export": export,
    "import": import_,
}


def register(add: Add) -> None:
    p = add("retain", "store a memory and print its id")
    p.add_argument("--kind", required=True)
    p.add_argument("--tag", action="append", default=[], dest="tags")
    p.add_argument("--occurred-at", metavar="ISO")
    p.add_argument("--id", dest="external_id", metavar="EXT", help="external id: retrying creates nothing new")
    p.add_argument("text", metavar="TEXT", help="the memory ('-' reads standard input)")

    p = add("recall", "find the memories relevant to a query")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--kind", action="append", default=[], dest="kinds")
    p.add_argument("--tag", action="append", default=[], dest="tags")
    p.add_argument("--as-of", metavar="ISO", help="what was true at this time (valid time)")
    p.add_argument("--after", metavar="ISO", help="only memories that occurred at or after this time")
    p.add_argument("--before", metavar="ISO", help="only memories that occurred before this time")
    p.add_argument("--strategy", default="balanced")
    p.add_argument("--budget", type=int, metavar="TOKENS", help="token budget for the results")
    p.add_argument("query", metavar="QUERY")

    p = add("show", "show one memory")
    p.add_argument("record_id", metavar="ID")

    p = add("supersede", "replace a memory with a new one; print the new id")
    p.add_argument("--occurred-at", metavar="ISO")
    p.add_argument("--why", help="why the old one no longer holds")
    p.add_argument("old_id", metavar="OLD_ID")
    p.add_argument("text", metavar="TEXT")

    p = add("retract", "withdraw a memory that was wrong")
    p.add_argument("--why", required=True)
    p.add_argument("record_id", metavar="ID")

    p = add("forget", "erase a memory and all its versions everywhere")
    p.add_argument(
        "--redact-sources", action="store_true", help="also cut its words out of the turns and titles that carried it"
    )
    p.add_argument("record_id", metavar="ID")

    p = add("delete-session", "erase one captured session: its turns, index entries and traces")
    p.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")
    p.add_argument("session_id", metavar="SESSION_ID")

    p = add("erase", "erase a whole subject: every record, session, trace and audit event")
    p.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")

    p = add("history", "show a memory's versions, supersessions and audit trail")
    p.add_argument("record_id", metavar="ID")

    p = add("export", "write a space to a JSON Lines file")
    p.add_argument("file", metavar="FILE")

    p = add("import", "read a JSON Lines export into a space")
    p.add_argument("file", metavar="FILE")
