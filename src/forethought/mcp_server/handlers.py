"""What each tool does: resolve the space, call the façade, shape the result.

The space is always derived here, in `resolve`: the caller's workspace (from the API key, or the
local workspace on stdio) + the app's subject type + the `project` argument. A handler receives
only the resolved `Call`, so no tool can name another workspace's space.
"""

from __future__ import annotations

from dataclasses import dataclass

from forethought.domain import Record
from forethought.domain.times import format_time, parse_time
from forethought.errors import InvalidInput
from forethought.facade import Forethought, Scope
from forethought.mcp_server import render
from forethought.mcp_server.args import AskArgs, BriefArgs, CheckArgs, RecallArgs, RulebookArgs, SubmitArgs, ToolArgs
from forethought.mcp_server.results import (
    AskResult,
    BriefResult,
    CheckResult,
    CitedOut,
    ExcerptOut,
    FilteredOut,
    HitOut,
    RecallResult,
    RejectedOut,
    RulebookResult,
    RuleOut,
    SubmitResult,
    SubmittedOut,
    UsedOut,
    ViolationOut,
)
from forethought.pipeline.diffs import looks_like_diff
from forethought.pipeline.review import SubmittedItem
from forethought.projects.org import merged_brief, merged_check
from forethought.projects.rulebook import area_of, build_rulebook
from forethought.projects.rulebook import render as render_rulebook

__all__ = ["Call", "Caller", "Defaults", "ask", "brief", "check", "recall", "resolve", "rulebook", "submit_session"]


@dataclass(frozen=True)
class Caller:
    """Who is calling: the workspace their API key belongs to (or the local one on stdio)."""

    workspace: str
    key_id: str | None = None  # None: a local stdio process, trusted as the user running it


@dataclass(frozen=True)
class Defaults:
    """Server-wide defaults for arguments a tool call leaves out."""

    app: str = "project"
    project: str | None = None


@dataclass(frozen=True)
class Call:
    memory: Forethought
    scope: Scope

    def labels(self) -> dict[str, str]:
        return {"project": self.scope.subject, "app": self.scope.app.name}

    def modes(self, mode: str, degraded: str | None) -> dict[str, str | bool | None]:
        return {"mode": mode, "heuristic": mode == "heuristic", "degraded": degraded}


def resolve(memory: Forethought, caller: Caller, defaults: Defaults, args: ToolArgs) -> Call:
    project = args.project or defaults.project
    if project is None:
        raise InvalidInput("project: required (this server was started without a default project)")
    scope = memory.scope(args.app or defaults.app, project, workspace=caller.workspace, field="project")
    return Call(memory=memory, scope=scope)


def brief(call: Call, args: BriefArgs) -> tuple[BriefResult, str]:
    # A project's brief merges the organisation rules it inherits (and does not override).
    b, _ = merged_brief(call.memory, call.scope, args.task, limit=args.limit, file_paths=args.files,
                        max_excerpts=args.max_excerpts)  # fmt: skip
    result = BriefResult(
        **call.labels(),
        **call.modes(b.mode, b.degraded),
        task=b.task,
        block=b.block,
        used=[UsedOut(**_ref(i.record), reason=i.reason, score=round(i.score, 6)) for i in b.used],
        filtered=[FilteredOut(**_ref(i.record, statement=False), reason=i.reason) for i in b.filtered],
        excerpts=[
            ExcerptOut(
                session_id=e.session_id,
                turn_index=e.turn_index,
                occurred_at=e.occurred_at.isoformat(),
                speaker=e.speaker,
                quote=e.quote,
                score=round(e.score, 3),
            )
            for e in b.excerpts
        ],
        block_tokens=b.block_tokens,
        all_memory_tokens=b.all_memory_tokens,
        note=b.note,
    )
    return result, render.brief(result)


def check(call: Call, args: CheckArgs) -> tuple[CheckResult, str]:
    is_diff = looks_like_diff(args.content) if args.diff is None else args.diff
    report, _ = merged_check(call.memory, call.scope, args.content, path=None if is_diff else args.path, diff=is_diff)
    result = CheckResult(
        **call.labels(),
        **call.modes(report.mode, report.degraded),
        clean=report.clean,
        violations=[
            ViolationOut(
                handle=v.handle,
                record_id=v.record_id,
                excerpt=v.excerpt,
                severity=v.severity,
                message=v.message,
                fix=v.suggestion,
                source=v.source,
                path=v.path,
                line=v.line,
            )
            for v in report.violations
        ],
        records_checked=report.records_checked,
        skipped_patterns=len(report.skipped_patterns),
    )
    return result, render.check(result)


def submit_session(call: Call, args: SubmitArgs) -> tuple[SubmitResult, str]:
    when = None if args.occurred_at is None else parse_time(args.occurred_at, field="occurred_at", zoned=True)
    done = call.memory.submit_session(
        call.scope,
        args.transcript,
        title=args.title,
        fmt=args.format,
        source="mcp",
        human=args.human,
        occurred_at=when,
    )
    items = done.result.submission.items

    def of(outcome: str) -> list[SubmittedOut]:
        return [_submitted(i) for i in items if i.outcome == outcome]

    result = SubmitResult(
        **call.labels(),
        **call.modes(done.result.mode, done.result.degraded),
        session=done.session.id,
        turns=len(done.session.turns),
        auto_approved=of("approved"),
        pending=of("pending"),
        merged=of("merged"),
        rejected=[
            RejectedOut(kind=r.candidate.kind, statement=r.candidate.statement, rule=r.rule, reason=r.reason)
            for r in done.result.submission.rejected
        ],
    )
    return result, render.submission(result)


def ask(call: Call, args: AskArgs) -> tuple[AskResult, str]:
    answer = call.memory.ask(call.scope, args.question)
    result = AskResult(
        **call.labels(),
        **call.modes(answer.mode, answer.degraded),
        question=answer.question,
        answer=answer.text,
        citations=answer.citations,
        records=[CitedOut(**_ref(r), status=r.status.value) for r in answer.records],
    )
    return result, render.answer(result)


def rulebook(call: Call, args: RulebookArgs) -> tuple[RulebookResult, str]:
    book = build_rulebook(call.memory, call.scope)
    rules = [
        RuleOut(handle=r.handle, id=r.id, kind=r.kind, statement=r.statement, area=area_of(r),
                since=format_time(r.occurred_at)[:10])
        for areas in book.grouped().values() for records in areas.values() for r in records
    ]  # fmt: skip
    result = RulebookResult(
        **call.labels(), markdown=render_rulebook(book, args.format), rules=rules, truncated=book.truncated
    )
    return result, result.markdown


def recall(call: Call, args: RecallArgs) -> tuple[RecallResult, str]:
    found = call.memory.recall(call.scope, args.query, k=args.k)
    result = RecallResult(
        **call.labels(),
        query=args.query,
        hits=[
            HitOut(
                **_ref(h.record),
                status=h.record.status.value,
                occurred_at=format_time(h.record.occurred_at),
                score=round(h.score, 6),
                why=h.explain(),
                signals={name: round(s.contribution, 6) for name, s in h.why.items()},
            )
            for h in found.hits
        ],
    )
    return result, render.recall(result)


def _ref(record: Record, *, statement: bool = True) -> dict[str, str]:
    ref = {"handle": record.handle, "id": record.id, "kind": record.kind}
    if statement:
        ref["statement"] = record.statement
    return ref


def _submitted(item: SubmittedItem) -> SubmittedOut:
    return SubmittedOut(**_ref(item.record), relation=item.relation.label.value, flags=list(item.record.flags))
