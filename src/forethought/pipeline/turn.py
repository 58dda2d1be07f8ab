"""The governed turn, in the order that makes memory come before the model:

 1. identity       resolve the caller's space (unknown callers are refused before this runs)
 2. persist        store the incoming message (secrets scrubbed) — nothing is lost after this
 3. recall         current records relevant to the message
 4. brief          keep the few that apply, each with its reason; the rest filtered with reasons
 5. generate       the reply, with the memory block at the top of the system prompt
 6. check          the draft against memory; on a violation regenerate once, then block
 7. persist reply  store what is sent
 8. memorize       extract → validate → relate → review → retain from this exchange
 9. trace          every stage's timing and outcome, kept and retrievable by id

Any stage after 2 that fails degrades the turn instead of failing it: no memory → the reply
says it has none; the model down → a heuristic reply that says so; memorize failing → the
trace says nothing was remembered. The user's message and approved memories are never lost.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from forethought.apps.base import App
from forethought.domain import Role, Session, Space, Turn, new_id
from forethought.domain.limits import clean_text
from forethought.domain.times import utcnow
from forethought.errors import ForethoughtError
from forethought.llm.base import ChatModel, ProviderError
from forethought.memory import Memory, Scope
from forethought.pipeline.brief import build_brief
from forethought.pipeline.capture import append_turn, capture_session
from forethought.pipeline.check import check_draft
from forethought.pipeline.memorize import memorize
from forethought.pipeline.reports import Brief, CheckReport, Violation
from forethought.pipeline.respond import Reply, generate, heuristic_reply
from forethought.pipeline.trace import FilteredItem, RecalledItem, Stage, Trace, UsedItem, ViolationItem

__all__ = ["MAX_MESSAGE", "TurnResult", "run_turn"]

log = logging.getLogger(__name__)
MAX_MESSAGE = 20_000
BLOCKED = "I drafted a reply that goes against what I remember, so I am not sending it. What it conflicted with:\n{why}"


@dataclass(frozen=True)
class TurnResult:
    reply: str
    session_id: str
    trace: Trace
    blocked: bool = False

    @property
    def trace_id(self) -> str:
        return self.trace.id


def _errors(report: CheckReport) -> list[Violation]:
    return [v for v in report.violations if v.severity == "error"]


def run_turn(
    memory: Memory,
    scope: Scope,
    message: str,
    *,
    session_id: str | None = None,
    model: ChatModel | None = None,
    brief_limit: int = 5,
) -> TurnResult:
    text = clean_text(message, field="message", limit=MAX_MESSAGE)  # bad input changes nothing
    app = scope.app
    trace = Trace(
        id=new_id(),
        space_id="",
        app=app.name,
        created_at=utcnow(),
        heuristic=model is None,
        mode="heuristic" if model is None else f"llm:{model.name}",
    )
    with trace.stage("identity"):
        space = scope.space()  # the turn's one space lookup: every later stage reuses it
        trace.space_id = space.id
    with trace.stage("persist_message"):
        session, user_index = _persist_message(memory, scope, space, session_id, text)
        trace.session_id = session.id
    brief = _brief(memory, scope, text, model, brief_limit, trace)
    reply = _generate(app, brief, session, text, model, trace)
    reply, blocked = _check(memory, scope, brief, session, text, reply, model, trace)
    with trace.stage("persist_reply"):
        append_turn(memory, scope, session, Turn(index=user_index + 1, role=Role.AGENT, text=reply.text))
    with trace.stage("memorize") as stage:
        try:
            stored = memory.store.sessions.get(space.id, session.id)
            result = memorize(
                memory,
                scope,
                stored,
                model=model,
                turn_indexes=(user_index, user_index + 1),
                source="turn",
                occurred_at=trace.created_at,
            )
            trace.memory = result.summary()
            trace.usage = trace.usage + result.usage
            if result.degraded:
                stage.status, stage.note = "degraded", result.degraded
        except ForethoughtError as exc:
            log.warning("memorize failed; the exchange is stored, nothing new remembered: %s", exc)
            stage.status, stage.note = "failed", f"nothing remembered from this turn ({exc.code})"
    _save(memory, trace)
    return TurnResult(reply=reply.text, session_id=session.id, trace=trace, blocked=blocked)


def _persist_message(
    memory: Memory, scope: Scope, space: Space, session_id: str | None, text: str
) -> tuple[Session, int]:
    if session_id is None:
        session = capture_session(
            memory, scope, [Turn(index=0, role=Role.USER, text=text)], title=text[:80], source="chat"
        )
        return session, 0
    session = memory.store.sessions.get(space.id, session_id)
    index = len(session.turns)
    append_turn(memory, scope, session, Turn(index=index, role=Role.USER, text=text))
    return session, index


def _brief(memory: Memory, scope: Scope, text: str, model: ChatModel | None, limit: int, trace: Trace) -> Brief:
    try:
        brief = build_brief(memory, scope, text, model=model, limit=limit)
    except ForethoughtError as exc:
        log.warning("recall failed; answering without memory: %s", exc)
        trace.stages.append(Stage(name="recall", status="failed", note=f"no memory used ({exc.code})"))
        trace.degraded.append(f"recall: no memory used ({exc.code})")
        return Brief(task=text, note="Memory was unavailable for this turn.")
    recall_ms = brief.timings_ms.get("recall", 0.0)
    trace.stages.append(
        Stage(
            name="recall",
            ms=recall_ms,
            status="ok" if brief.recalled else "skipped",
            note="" if brief.recalled else (brief.note or "no memory in this space"),
        )
    )
    trace.stages.append(
        Stage(
            name="brief",
            ms=round(brief.timings_ms.get("total", recall_ms) - recall_ms, 3),
            status="degraded" if brief.degraded else "ok",
            note=brief.degraded or "",
        )
    )
    if brief.degraded:
        trace.degraded.append(f"brief: {brief.degraded}")
    trace.usage = trace.usage + brief.usage
    trace.used = [UsedItem(id=i.record.id, handle=i.record.handle, reason=i.reason) for i in brief.used]
    trace.filtered = [FilteredItem(id=i.record.id, handle=i.record.handle, reason=i.reason) for i in brief.filtered]
    trace.recalled = [RecalledItem(id=i.record.id, handle=i.record.handle, score=i.score) for i in brief.used] + [
        RecalledItem(id=i.record.id, handle=i.record.handle) for i in brief.filtered
    ]
    return brief


def _generate(
    app: App,
    brief: Brief,
    session: Session,
    text: str,
    model: ChatModel | None,
    trace: Trace,
    feedback: list[Violation] | None = None,
    name: str = "generate",
) -> Reply:
    with trace.stage(name) as stage:
        try:
            reply = generate(app, brief, session.turns, text, model=model, feedback=feedback or [])
        except ProviderError as exc:
            stage.status, stage.note = "degraded", f"model unavailable ({exc.code}); heuristic reply"
            fallback = heuristic_reply(brief)
            return Reply(text=f"The language model is unavailable right now.\n{fallback.text}", mode="heuristic")
        trace.usage = trace.usage + reply.usage
        return reply


def _check(
    memory: Memory,
    scope: Scope,
    brief: Brief,
    session: Session,
    text: str,
    reply: Reply,
    model: ChatModel | None,
    trace: Trace,
) -> tuple[Reply, bool]:
    app = scope.app
    if reply.mode == "heuristic":
        # The heuristic reply only restates the memory it was given: there is nothing to verify.
        trace.stages.append(Stage(name="check", status="skipped", note="heuristic reply restates memory"))
        return reply, False
    records = [item.record for item in brief.used]
    for attempt in ("check", "recheck"):
        with trace.stage(attempt) as stage:
            try:
                report = check_draft(memory, scope, reply.text, records=records or None, model=model)
            except ForethoughtError as exc:
                stage.status, stage.note = "failed", f"draft not verified ({exc.code})"
                return reply, False
            trace.usage = trace.usage + report.usage
            trace.violations = [
                ViolationItem(handle=v.handle, severity=v.severity, source=v.source, rule=v.rule)
                for v in report.violations
            ]
            errors = _errors(report)
            if report.degraded:
                stage.status, stage.note = "degraded", report.degraded
        if not errors:
            return reply, False
        if attempt == "check":
            trace.regenerated = True
            reply = _generate(app, brief, session, text, model, trace, feedback=errors, name="regenerate")
            if reply.mode == "heuristic":
                return reply, False
    trace.blocked = True
    why = "\n".join(f"- {v.message} [{v.handle}]" for v in errors)
    return Reply(text=BLOCKED.format(why=why), mode=reply.mode), True


def _save(memory: Memory, trace: Trace) -> None:
    with trace.stage("trace"):
        pass  # the stage list is complete once this is recorded; timing it would time the write itself
    try:
        memory.store.traces.add(
            trace.space_id,
            trace.id,
            kind=trace.kind,
            session_id=trace.session_id,
            created_at=trace.created_at,
            data=trace.stored(),
        )
    except ForethoughtError as exc:  # the reply still goes out; the log says the trace was lost
        log.error("could not store trace %s: %s", trace.id, exc)
