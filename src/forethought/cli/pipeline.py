"""The pipeline commands: extract, submit, chat, inbox, brief, check, ask, trace."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any

from forethought.cli.context import Context, Output, read_file_arg, read_text_arg
from forethought.cli.render import record_json
from forethought.domain.candidates import Candidate, Rejection
from forethought.domain.limits import check_speaker
from forethought.domain.times import parse_time
from forethought.errors import InvalidInput
from forethought.pipeline.reports import Answer, Brief, CheckReport
from forethought.pipeline.review import Submission
from forethought.pipeline.service import dry_run
from forethought.pipeline.transcripts import FORMATS, parse_transcript

__all__ = ["COMMANDS", "register"]

Add = Callable[..., argparse.ArgumentParser]


def _candidate(c: Candidate) -> dict[str, Any]:
    return c.model_dump(mode="json")


def _rejection(r: Rejection) -> dict[str, Any]:
    return {"rule": r.rule, "reason": r.reason, "kind": r.candidate.kind, "statement": r.candidate.statement}


def _human(a: argparse.Namespace) -> str | None:
    return None if a.human is None else check_speaker(a.human, field="--human")


def extract(ctx: Context) -> Output:
    human = _human(ctx.args)
    transcript = read_file_arg(ctx.args.file, field_name="transcript")
    # no database involved
    result = dry_run(ctx.app, transcript, model=ctx.model(), fmt=ctx.args.format, human=human)
    data = {
        "mode": result.mode,
        "degraded": result.degraded,
        "candidates": [_candidate(c) for c in result.candidates],
        "rejected": [_rejection(r) for r in result.rejected],
    }
    lines = [
        f"{len(result.turns)} turns, extractor: {result.mode}" + (f" ({result.degraded})" if result.degraded else "")
    ]
    lines += [
        f"+ {c.kind:<20} {c.confidence:.2f}  {c.statement}" + (f"  [flags: {', '.join(c.flags)}]" if c.flags else "")
        for c in result.candidates
    ]
    lines += [f"- {r.candidate.kind:<20} rejected ({r.rule}): {r.reason}" for r in result.rejected]
    return Output(data, "\n".join(lines))


def _submission(s: Submission) -> tuple[dict[str, Any], list[str]]:
    data = {
        "items": [
            {
                "id": i.record.id,
                "handle": i.record.handle,
                "kind": i.record.kind,
                "statement": i.record.statement,
                "outcome": i.outcome,
                "relation": i.relation.label.value,
                "target": i.relation.target_id,
            }
            for i in s.items
        ],
        "rejected": [_rejection(r) for r in s.rejected],
    }
    lines = [
        f"{i.outcome:<9} {i.record.handle}  {i.record.kind:<20} {i.record.statement}  ({i.relation.label.value})"
        for i in s.items
    ]
    lines += [f"rejected  {r.candidate.kind:<20} {r.rule}: {r.reason}" for r in s.rejected]
    return data, lines


def submit(ctx: Context) -> Output:
    a = ctx.args
    # parsed before any write
    when = None if a.occurred_at is None else parse_time(a.occurred_at, field="--occurred-at", zoned=True)
    turns = parse_transcript(read_file_arg(a.file, field_name="transcript"), fmt=a.format, human=_human(a))
    memory = ctx.memory(create=True)
    memory.model = ctx.model()
    result = memory.submit_session(ctx.scope, turns, title=a.title or a.file, occurred_at=when)
    data, lines = _submission(result.result.submission)
    data.update({"session": result.session.id, "mode": result.result.mode, "degraded": result.result.degraded})
    head = f"session {result.session.id}: {len(result.session.turns)} turns, extractor {result.result.mode}"
    return Output(data, "\n".join([head, *lines]))


def chat(ctx: Context) -> Output:
    a = ctx.args
    memory = ctx.memory(create=True)
    memory.model = ctx.model()
    result = memory.turn(ctx.scope, read_text_arg(a.message, field_name="message"), session_id=a.session)
    t = result.trace
    data = {
        "reply": result.reply,
        "session": result.session_id,
        "trace": t.id,
        "blocked": result.blocked,
        "heuristic": t.heuristic,
        "used": [u.model_dump(mode="json") for u in t.used],
        "memory": t.memory.model_dump(mode="json"),
    }
    timing = ", ".join(f"{s.name} {s.ms:.0f}ms" + ("" if s.status == "ok" else f" ({s.status})") for s in t.stages)
    text = f"{result.reply}\n\n-- session {result.session_id}, trace {t.id}\n-- {timing}"
    if t.used:
        text += "\n-- memory used: " + "; ".join(f"{u.handle} ({u.reason})" for u in t.used)
    return Output(data, text)


def inbox(ctx: Context) -> Output:
    a = ctx.args
    memory = ctx.memory()
    if a.action == "list":
        box = memory.inbox(ctx.scope)
        data = {"pending": [record_json(r) for r in box.pending], "filtered": [record_json(r) for r in box.filtered]}
        lines = [
            f"{r.handle}  {r.kind:<20} {r.confidence:.2f}  {r.statement}"
            + (f"  [{r.relation.label.value}]" if r.relation and r.relation.label.value != "new" else "")
            + (f"  [flags: {', '.join(r.flags)}]" if r.flags else "")
            for r in box.pending
        ]
        lines = lines or ["the inbox is empty"]
        if box.filtered:
            lines.append(f"filtered by the validator ({len(box.filtered)}):")
            lines += [
                f"  {r.handle}  {', '.join(f for f in r.flags if f.startswith('validator:'))}  {r.statement}"
                for r in box.filtered
            ]
        return Output(data, "\n".join(lines))
    if a.action == "approve":
        if a.all:
            done = memory.approve_all(ctx.scope, high_confidence=a.high_confidence)
            return Output([record_json(r) for r in done], f"approved {len(done)} candidate(s)")
        if not a.record_id:
            raise InvalidInput("inbox approve: give an ID, or --all")
        conflict = None if a.conflict is None else a.conflict.replace("-", "_")
        record = memory.approve(ctx.scope, a.record_id, conflict=conflict)
        return Output(record_json(record), f"approved {record.handle}")
    if a.action == "from-excerpt":
        filed = memory.promote_excerpt(ctx.scope, a.session_id, a.turn, a.quote, kind=a.kind, statement=a.statement,
                                       source="cli")  # fmt: skip
        data = {
            "items": [{"outcome": i.outcome, "record": record_json(i.record)} for i in filed.items],
            "rejected": [{"rule": r.rule, "reason": r.reason} for r in filed.rejected],
        }
        lines = [f"{i.outcome} {i.record.handle}  {i.record.kind}  {i.record.statement}" for i in filed.items]
        lines += [f"refused by the validator ({r.rule}): {r.reason}" for r in filed.rejected]
        return Output(data, "\n".join(lines) or "nothing was filed")
    if a.action == "reject":
        record = memory.reject(ctx.scope, a.record_id, reason=a.why)
        return Output(record_json(record), f"rejected {record.handle}")
    record = memory.edit(ctx.scope, a.record_id, read_text_arg(a.text))
    return Output(record_json(record), f"edited: new version {record.handle}")


def brief_data(b: Brief) -> dict[str, Any]:
    return {
        "used": [
            {"id": i.record.id, "handle": i.record.handle, "statement": i.record.statement, "reason": i.reason}
            for i in b.used
        ],
        "filtered": [{"id": i.record.id, "handle": i.record.handle, "reason": i.reason} for i in b.filtered],
        "excerpts": [e.model_dump(mode="json") for e in b.excerpts],
        "block": b.block,
        "block_tokens": b.block_tokens,
        "all_memory_tokens": b.all_memory_tokens,
        "mode": b.mode,
        "degraded": b.degraded,
        "note": b.note,
    }


def brief_lines(b: Brief, sources: Mapping[str, str] | None = None) -> list[str]:
    """A brief for a terminal: the block, what was used and why (with each rule's source when
    `sources` names one), what was filtered, and the excerpts with how to promote them."""
    lines = [
        b.block or f"(no memory applies{': ' + b.note if b.note else ''})",
        "",
        f"-- {len(b.used)} used, {len(b.filtered)} filtered; block {b.block_tokens} tokens vs "
        f"{b.all_memory_tokens} for all memory; judge: {b.mode}" + (f" ({b.degraded})" if b.degraded else ""),
    ]
    for i in b.used:
        source = f" ({sources.get(i.record.id, 'project')})" if sources is not None else ""
        lines.append(f"-- used {i.record.handle}{source}: {i.reason}")
    lines += [f"-- filtered {i.record.handle}: {i.reason}" for i in b.filtered]
    lines += [
        f"-- unreviewed excerpt: session {e.session_id} turn {e.turn_index} ({e.occurred_at.date()}), score "
        f"{e.score:.2f}; promote: forethought inbox from-excerpt {e.session_id} {e.turn_index} QUOTE --kind KIND"
        for e in b.excerpts
    ]
    return lines


def brief(ctx: Context) -> Output:
    memory = ctx.memory()
    memory.model = ctx.model()
    b = memory.brief(
        ctx.scope, ctx.args.task, limit=ctx.args.limit, file_paths=ctx.args.paths, max_excerpts=ctx.args.excerpts
    )
    lines = brief_lines(b)
    return Output(brief_data(b), "\n".join(lines))


def check(ctx: Context) -> Output:
    memory = ctx.memory()
    memory.model = ctx.model()
    path = ctx.args.path or (None if ctx.args.file == "-" else ctx.args.file)
    report: CheckReport = memory.check(ctx.scope, read_file_arg(ctx.args.file, field_name="draft"), path=path)
    return Output(report.model_dump(mode="json"), "\n".join(check_lines(report)), code=1 if report.violations else 0)


def check_lines(report: CheckReport, origins: Mapping[str, str] | None = None, *, diff: bool = False) -> list[str]:
    """A check report for a terminal: each finding with where it is (a diff's file:line), the
    draft's words, the fix and, when `origins` names it, that the rule is an organisation's."""
    pad = " " * 9
    lines = []
    for v in report.violations:
        org = " (organisation rule)" if origins is not None and origins.get(v.record_id) == "organisation" else ""
        where = f"\n{pad}at {v.path}:{v.line}" if v.path and v.line else f"\n{pad}in {v.path}" if v.path else ""
        lines.append(f"{v.severity.upper():<8} [{v.handle}]{org} {v.message}{where}\n{pad}excerpt: {v.excerpt!r}"
                     f"\n{pad}fix: {v.suggestion}")  # fmt: skip
    what = "the diff's added lines" if diff else "the draft"
    lines = lines or [f"clean: nothing in {what} goes against memory"]
    degraded = f" ({report.degraded})" if report.degraded else ""
    return [*lines, f"-- {report.records_checked} records checked, mode {report.mode}{degraded}"]


def ask(ctx: Context) -> Output:
    memory = ctx.memory()
    memory.model = ctx.model()
    answer: Answer = memory.ask(ctx.scope, ctx.args.question)
    data = {"answer": answer.text, "citations": answer.citations, "mode": answer.mode, "degraded": answer.degraded}
    return Output(data, f"{answer.text}\n-- {answer.mode}" + (f" ({answer.degraded})" if answer.degraded else ""))


def trace(ctx: Context) -> Output:
    t = ctx.memory().trace(ctx.scope, ctx.args.trace_id)
    lines = [f"trace {t.id} ({t.mode}){' BLOCKED' if t.blocked else ''}"]
    lines += [f"  {s.name:<16} {s.ms:>9.1f} ms  {s.status}{'  ' + s.note if s.note else ''}" for s in t.stages]
    return Output(t.model_dump(mode="json"), "\n".join(lines))


COMMANDS: dict[str, Callable[[Context], Output]] = {
    "extract": extract,
    "submit": submit,
    "chat": chat,
    "inbox": inbox,
    "brief": brief,
    "check": check,
    "ask": ask,
    "trace": trace,
}


def register(add: Add) -> None:
    p = add("extract", "show what a transcript would give to remember (writes nothing)", space=False)
    p.add_argument("--file", required=True, metavar="TRANSCRIPT", help="the transcript ('-' reads standard input)")
    p.add_argument("--format", default="auto", choices=FORMATS)
    p.add_argument("--human", metavar="NAME", help="in a plain-text chat between named speakers: the person")

    p = add("submit", "capture a transcript and send what it gives to remember to the inbox")
    p.add_argument("--file", required=True, metavar="TRANSCRIPT")
    p.add_argument("--format", default="auto", choices=FORMATS)
    p.add_argument("--human", metavar="NAME", help="in a plain-text chat between named speakers: the person")
    p.add_argument(
        "--occurred-at",
        metavar="ISO",
        help="when a transcript without times happened, with its time zone (e.g. 2026-03-04T10:12:00Z)",
    )
    p.add_argument("--title")

    p = add("chat", "one governed turn: recall, brief, generate, check, remember; prints the reply")
    p.add_argument("--session", metavar="ID", help="continue this session")
    p.add_argument("message", metavar="MESSAGE")

    p = add("inbox", "review candidates: list | approve | reject | edit", group=True)
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True
    add("list", "pending candidates, and what the validator filtered", parent=actions)
    q = add("approve", "approve a candidate (or --all)", parent=actions)
    q.add_argument("record_id", nargs="?", metavar="ID")
    q.add_argument("--all", action="store_true", help="approve every unflagged, conflict-free candidate")
    q.add_argument("--high-confidence", action="store_true", help="with --all: only confident, new ones")
    q.add_argument("--conflict", choices=["supersede", "keep-both"], help="how to settle a conflicting candidate")
    q = add("from-excerpt", "file a brief's past-session excerpt as a candidate", parent=actions)
    q.add_argument("session_id", metavar="SESSION")
    q.add_argument("turn", type=int, metavar="TURN")
    q.add_argument("quote", metavar="QUOTE", help="the excerpt, verbatim from that turn")
    q.add_argument("--kind", help="one of the app's kinds (without it the app's extractor reads the quote)")
    q.add_argument("--statement", help="the rule in your words (default: the quote)")
    q = add("reject", "reject a candidate", parent=actions)
    q.add_argument("record_id", metavar="ID")
    q.add_argument("--why", help="the reason, kept in the audit trail")
    q = add("edit", "replace a candidate's text with a corrected version", parent=actions)
    q.add_argument("record_id", metavar="ID")
    q.add_argument("text", metavar="TEXT", help="the new text ('-' reads standard input)")

    p = add("brief", "the memory that applies to a task, and the block for a system prompt")
    p.add_argument("--limit", type=int, default=5)
    p.add_argument("--path", action="append", default=[], dest="paths", help="a file the task touches")
    p.add_argument(
        "--excerpts",
        type=int,
        default=3,
        choices=range(0, 11),
        metavar="N",
        help="past-session excerpts allowed in the room the records leave (default 3; 0: none)",
    )
    p.add_argument("task", metavar="TASK")

    p = add("check", "check a draft against memory (exit 1 when something goes against it)")
    p.add_argument("--file", required=True, metavar="DRAFT", help="the draft ('-' reads standard input)")
    p.add_argument("--path", metavar="FILE", help="the file the draft is for (default: --file's own path)")

    p = add("ask", "answer a question from memory alone, with citations")
    p.add_argument("question", metavar="QUESTION")

    p = add("trace", "show a governed turn's trace")
    p.add_argument("trace_id", metavar="ID")
