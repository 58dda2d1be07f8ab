"""`forethought project ...`: project memory for coding agents, one command per job.

create, import (transcript, rule file, ADR folder), import-git, brief (with `--repo`, rules whose
cited files are gone are marked stale), stale / confirm / retire, check (content or a unified
diff), rulebook (Markdown, AGENTS.md, CLAUDE.md or .cursorrules; dated snapshots and changes),
eval (brief precision, recall and forbidden-rule rate over a task file). Every action takes
`--project P` (the project's space) and `--json`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forethought.cli import pipeline as chat_commands
from forethought.cli.context import Context, Output, read_file_arg
from forethought.cli.render import record_json
from forethought.domain import Record
from forethought.domain.limits import check_speaker
from forethought.domain.times import format_time, parse_time
from forethought.errors import InvalidInput
from forethought.pipeline.diffs import looks_like_diff
from forethought.pipeline.documents import DocumentImport
from forethought.projects.compare import compare
from forethought.projects.evaluation import evaluate, read_tasks
from forethought.projects.imports import FORMATS, ProjectImport, import_git, import_path
from forethought.projects.org import (
    ORG,
    merged_brief,
    merged_check,
    org_scope,
    overrides,
    refuse_reserved,
    set_override,
)
from forethought.projects.rulebook import FORMATS as BOOK_FORMATS
from forethought.projects.rulebook import build_rulebook, changes, render
from forethought.projects.stale import REVIEW_DAYS, missing_evidence, queue_missing, review_queue

__all__ = ["project", "register"]

Add = Callable[..., argparse.ArgumentParser]


def project(ctx: Context) -> Output:
    return _ACTIONS[ctx.args.action](ctx)


def _create(ctx: Context) -> Output:
    memory = ctx.memory(create=True)
    space = memory.space(ctx.scope)
    return Output({"project": ctx.args.space, "space": space.id}, f"project {ctx.args.space} ready ({space.id[:12]})")


def _import(ctx: Context) -> Output:
    a = ctx.args
    human = None if a.human is None else check_speaker(a.human, field="--human")
    memory = ctx.memory(create=True)
    memory.model = ctx.model()
    return _imported(import_path(memory, ctx.scope, Path(a.path), fmt=a.format, human=human))


def _import_git(ctx: Context) -> Output:
    a = ctx.args
    since = None if a.since is None else parse_time(a.since, field="--since")
    memory = ctx.memory(create=True)
    memory.model = ctx.model()
    return _imported(import_git(memory, ctx.scope, Path(a.repo), since=since, environ=os.environ))


def _imported(result: ProjectImport) -> Output:
    data: dict[str, Any] = {"what": result.what, "skipped": [{"what": w, "why": y} for w, y in result.skipped]}
    lines: list[str] = []
    if result.session is not None:
        s = result.session
        sub = s.result.submission
        data.update(
            {"session": s.session.id, "mode": s.result.mode, "pending": [record_json(i.record) for i in sub.items]}
        )
        lines.append(f"session {s.session.id}: {len(s.session.turns)} turns, extractor {s.result.mode}")
        lines += [f"  {i.outcome:<8} {i.record.handle}  {i.record.kind:<18} {i.record.statement}" for i in sub.items]
        lines += [f"  rejected {r.candidate.kind:<18} {r.rule}: {r.reason}" for r in sub.rejected]
    if result.documents is not None:
        docs_data, doc_lines = _documents(result.documents)
        data.update(docs_data)
        lines += doc_lines
    if result.truncated:
        lines.append("(the history was longer than one import reads: import the rest with --since)")
    lines += [f"  skipped  {what}: {why}" for what, why in result.skipped]
    return Output(data, "\n".join(lines))


def _documents(result: DocumentImport) -> tuple[dict[str, Any], list[str]]:
    pending = result.records("pending")
    counts = {o: result.count(o) for o in ("filed", "history", "known", "skipped")}
    data = {
        "counts": counts,
        "documents": [{"ref": d.ref, "outcome": d.outcome, "reason": d.reason, "session": d.session_id}
                      for d in result.documents],
        "pending": [record_json(r) for r in pending],
        "history": [record_json(r) for d in result.documents for r in d.history],
        "rejected": [{"rule": r.rule, "reason": r.reason, "statement": r.candidate.statement}
                     for r in result.rejected()],
        "reverted": [record_json(r) for r in result.reverted],
        "retractions": [{"record": record_json(r.record), "by": r.by_ref, "reason": r.reason}
                        for r in result.retractions],
    }  # fmt: skip
    lines = [
        f"{counts['filed']} filed, {counts['history']} as history, {counts['known']} already imported, "
        f"{counts['skipped']} skipped; {len(pending)} candidate(s) in the inbox"
    ]
    lines += [f"  pending  {r.handle}  {r.kind:<18} {r.statement}" for r in pending]
    for d in result.documents:
        lines += [f"  history  {r.handle}  {r.status.value:<10} {r.statement}" for r in d.history]
        if d.outcome == "skipped":
            lines.append(f"  skipped  {d.title}: {d.reason}")
    lines += [f"  rejected {r.candidate.kind:<18} {r.rule}: {r.reason}" for r in result.rejected()]
    lines += [f"  reverted {r.handle}  (its commit was reverted; the candidate is rejected)" for r in result.reverted]
    lines += [
        f"  retract? {r.record.handle}  {r.reason}: confirm with "
        f"forethought retract --app project --space SPACE {r.record.handle} --why 'reverted'"
        for r in result.retractions
    ]
    return data, lines


def _check(ctx: Context) -> Output:
    a = ctx.args
    text = read_file_arg(a.file, field_name="draft")
    is_diff = a.diff or (not a.content and looks_like_diff(text))
    memory = ctx.memory()
    memory.model = ctx.model()
    path = None if is_diff else a.path or (None if a.file == "-" else a.file)
    report, origins = merged_check(memory, ctx.scope, text, path=path, diff=is_diff)
    data = report.model_dump(mode="json")
    for v in data["violations"]:
        v["origin"] = origins.get(v["record_id"], "project")  # `source` already says which check found it
    lines = chat_commands.check_lines(report, origins, diff=is_diff)
    return Output(data, "\n".join(lines), code=1 if report.violations else 0)


def _rulebook(ctx: Context) -> Output:
    a = ctx.args
    memory = ctx.memory()
    as_of = None if a.as_of is None else parse_time(a.as_of, field="--as-of")
    if a.changes_since is not None:
        since = parse_time(a.changes_since, field="--changes-since")
        found = changes(memory, ctx.scope, since, as_of)
        listed = [{"what": c.what, "at": format_time(c.at), "record": record_json(c.record),
                 "replaced_by": c.replaced_by.handle if c.replaced_by else None} for c in found]  # fmt: skip
        lines = [
            f"{format_time(c.at)[:10]}  {c.what:<10} {c.record.handle}  {c.record.statement}"
            + (f"  → {c.replaced_by.handle}" if c.replaced_by else "")
            for c in found
        ]
        return Output(listed, "\n".join(lines) or "nothing changed in that time")
    book = build_rulebook(memory, ctx.scope, as_of=as_of)
    text = render(book, a.format)
    data = {
        "format": a.format,
        "text": text,
        "rules": [record_json(r) for r in book.rules],
        "truncated": book.truncated,
    }
    return Output(data, text)


def _brief(ctx: Context) -> Output:
    a = ctx.args
    memory = ctx.memory()
    memory.model = ctx.model()
    b, sources = merged_brief(memory, ctx.scope, a.task, limit=a.limit, file_paths=a.paths, max_excerpts=a.excerpts)
    data = chat_commands.brief_data(b)
    for item in data["used"]:
        item["origin"] = sources.get(item["id"], "project")
    lines = chat_commands.brief_lines(b, sources)
    if a.repo is not None:
        lines += _stale_notes(ctx, [i.record for i in b.used], data)
    return Output(data, "\n".join(lines))


def _stale_notes(ctx: Context, used: list[Record], data: dict[str, Any]) -> list[str]:
    """Mark the briefed rules whose cited evidence is gone from the tree, and queue them once."""
    memory = ctx.memory()
    gone = missing_evidence(used, Path(ctx.args.repo), environ=os.environ)
    queue_missing(memory, ctx.scope, used, gone)  # an inherited organisation rule is not this project's to queue
    data["stale"] = {r.handle: gone[r.id] for r in used if r.id in gone}
    return [f"-- STALE {handle}: its evidence is gone ({', '.join(what)}); re-confirm it: forethought project "
            f"confirm --project {ctx.args.space} {handle}" for handle, what in data["stale"].items()]  # fmt: skip


def _stale(ctx: Context) -> Output:
    a = ctx.args
    memory = ctx.memory()
    repo = None if a.repo is None else Path(a.repo)
    queue = review_queue(memory, ctx.scope, repo=repo, days=a.days, environ=os.environ)
    data = [{"record": record_json(s.record), "due": format_time(s.due), "reasons": s.reasons, "missing": s.missing}
            for s in queue]  # fmt: skip
    lines = [f"{s.record.handle}  {s.record.statement}\n    " + "\n    ".join(s.reasons) for s in queue]
    if queue:
        lines.append(f"-- confirm: forethought project confirm --project {a.space} HANDLE; retire: forethought "
                     f"project retire --project {a.space} HANDLE --why TEXT (or supersede it)")  # fmt: skip
    return Output(data, "\n".join(lines) or "nothing needs re-confirmation")


def _confirm(ctx: Context) -> Output:
    memory = ctx.memory()
    event = memory.note_review(ctx.scope, ctx.args.record_id, "confirmed", reason=ctx.args.note)
    record = memory.get(ctx.scope, ctx.args.record_id)
    return Output({"record": record_json(record), "confirmed_at": format_time(event.at)},
                  f"confirmed {record.handle}: next review in {REVIEW_DAYS} days")  # fmt: skip


def _retire(ctx: Context) -> Output:
    record = ctx.memory().retract(ctx.scope, ctx.args.record_id, why=ctx.args.why)
    return Output(record_json(record), f"retired {record.handle} (retracted; it stays in history)")


def _compare(ctx: Context) -> Output:
    memory = ctx.memory()
    memory.model = ctx.model()
    result = compare(memory, ctx.scope, ctx.args.task, repeat=ctx.args.repeat, file_paths=ctx.args.paths)
    return Output(result.as_json(), result.text())


def _org(ctx: Context) -> Output:
    a = ctx.args
    memory = ctx.memory(create=True)
    if a.org_action == "import":
        org = org_scope(memory, ctx.scope)
        memory.model = ctx.model()
        return _imported(import_path(memory, org, Path(a.path), fmt=a.format))
    if a.org_action == "rulebook":
        book = build_rulebook(memory, org_scope(memory, ctx.scope))
        return Output({"rules": [record_json(r) for r in book.rules]}, render(book, a.format))
    if a.org_action == "overrides":
        found = overrides(memory, ctx.scope)
        data = [{"record": record_json(o.record), "reason": o.reason, "by": o.by} for o in found.values()]
        lines = [
            f"{o.record.handle}  {o.record.statement}\n    overridden: {o.reason} (by {o.by})" for o in found.values()
        ]
        return Output(data, "\n".join(lines) or f"project {a.space} overrides no organisation rule")
    restore = a.org_action == "restore"
    record = set_override(memory, ctx.scope, a.record_id, reason=a.why, restore=restore).record
    verb = "restored" if restore else "overridden"
    return Output({"record": record_json(record), "project": a.space, "verdict": verb},
                  f"{record.handle} {verb} in project {a.space}: {a.why}")  # fmt: skip


def _eval(ctx: Context) -> Output:
    memory = ctx.memory()
    memory.model = ctx.model()
    report = evaluate(memory, ctx.scope, read_tasks(read_file_arg(ctx.args.tasks, field_name="tasks")))
    return Output(report.as_json(), report.text())


_ACTIONS: dict[str, Callable[[Context], Output]] = {
    "create": _create,
    "import": _import,
    "import-git": _import_git,
    "brief": _brief,
    "stale": _stale,
    "confirm": _confirm,
    "retire": _retire,
    "check": _check,
    "rulebook": _rulebook,
    "eval": _eval,
    "compare": _compare,
    "org": _org,
}


def _project_name(value: str) -> str:
    try:
        return refuse_reserved(value)
    except InvalidInput as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(add: Add) -> None:
    p = add("project", "project memory for coding agents: import, brief, check, rulebook, eval", group=True)
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True

    def action(name: str, help_text: str, *, parent: Any = actions, project: bool = True) -> argparse.ArgumentParser:
        q = add(name, help_text, space=False, parent=parent)
        if project:
            q.add_argument("--project", required=True, dest="space", metavar="P", type=_project_name,
                           help="the project (its memory space)")  # fmt: skip
        q.set_defaults(app="project", **({} if project else {"space": ORG}))
        return q

    action("create", "create a project (its memory space)")
    q = action("import", "import a transcript, a rule file (AGENTS.md, .cursorrules...) or an ADR folder")
    q.add_argument("path", metavar="PATH")
    q.add_argument("--format", default="auto", choices=FORMATS, help="what PATH holds (default: detected)")
    q.add_argument("--human", metavar="NAME", help="in a plain-text chat between named speakers: the person")
    q = action("import-git", "propose the decisions stated in a repository's commit messages")
    q.add_argument("--repo", default=".", metavar="PATH", help="the repository (default: the current folder)")
    q.add_argument("--since", metavar="DATE", help="only commits after this date (e.g. 2024-01-01)")
    q = action("brief", "the rules that apply to a task (at most --limit), and why the rest do not")
    q.add_argument("--limit", type=int, default=5)
    q.add_argument("--path", action="append", default=[], dest="paths", help="a file the task touches")
    q.add_argument("--excerpts", type=int, default=3, choices=range(0, 11), metavar="N",
                   help="past-session excerpts allowed in the room the rules leave (default 3; 0: none)")  # fmt: skip
    q.add_argument("--repo", metavar="PATH", help="check the briefed rules' cited files and functions in this tree")
    q.add_argument("task", metavar="TASK")
    q = action("stale", "the rules that need re-confirmation: review date passed, or evidence gone (--repo)")
    q.add_argument("--repo", metavar="PATH", help="check every rule's cited files and functions in this working tree")
    q.add_argument("--days", type=int, default=REVIEW_DAYS, help=f"review interval (default {REVIEW_DAYS})")
    q = action("confirm", "re-confirm a rule: it stands as written (renews its review date)")
    q.add_argument("record_id", metavar="ID")
    q.add_argument("--note", help="why it still stands (kept in the audit trail)")
    q = action("retire", "retire a stale rule (a retraction; to replace it, use `forethought supersede`)")
    q.add_argument("record_id", metavar="ID")
    q.add_argument("--why", required=True, help="why it no longer holds")
    q = action("check", "check a draft or a unified diff against the rules (exit 1 on violations)")
    q.add_argument("--file", required=True, metavar="DRAFT_OR_DIFF", help="'-' reads standard input")
    q.add_argument("--path", metavar="FILE", help="the file a draft is for (a diff names its own files)")
    kind = q.add_mutually_exclusive_group()
    kind.add_argument("--diff", action="store_true", help="read --file as a unified diff (default: detected)")
    kind.add_argument("--content", action="store_true", help="read --file as content even if it looks like a diff")
    q = action("rulebook", "the rules in force, grouped by kind and area (or as a rule file's content)")
    q.add_argument("--format", default="md", choices=BOOK_FORMATS, help="md, or agents / claude / cursor content")
    q.add_argument("--as-of", metavar="DATE", help="the rules in force at that date")
    q.add_argument("--changes-since", metavar="DATE", help="what came in and what was retired since that date")
    q = action("compare", "one task generated with and without the memory block, both checked blind (needs an LLM)")
    q.add_argument("--repeat", type=int, default=3, help="rounds (1-10, default 3)")
    q.add_argument("--path", action="append", default=[], dest="paths", help="a file the task touches")
    q.add_argument("task", metavar="TASK")
    g = add("org", "organisation rules every project of the workspace inherits", group=True, parent=actions)
    org = g.add_subparsers(dest="org_action", metavar="ACTION", parser_class=type(g))
    org.required = True
    q = action("import", "import organisation rules: a rule file, an ADR folder, a transcript", parent=org,
               project=False)  # fmt: skip
    q.add_argument("path", metavar="PATH")
    q.add_argument("--format", default="auto", choices=FORMATS)
    q = action("rulebook", "the organisation rules in force", parent=org, project=False)
    q.add_argument("--format", default="md", choices=BOOK_FORMATS)
    action("overrides", "the organisation rules a project overrides, with why and by whom", parent=org)
    for name, help_text in (("override", "exempt a project from one organisation rule (audited on the rule)"),
                            ("restore", "lift a project's override of an organisation rule")):  # fmt: skip
        q = action(name, help_text, parent=org)
        q.add_argument("record_id", metavar="ID", help="the organisation rule")
        q.add_argument("--why", required=True, help="the reason, kept in the rule's audit trail")
    q = action("eval", "brief precision, recall and forbidden-rule rate over a JSON task file")
    q.add_argument("--tasks", required=True, metavar="FILE", help="see docs/project.md for the format")
