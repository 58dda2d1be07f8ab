"""The memory pipeline over HTTP: recall, brief, check, ask, and the governed turn."""

from __future__ import annotations

from fastapi import APIRouter

from forethought.pipeline.diffs import looks_like_diff
from forethought.projects.org import merged_brief, merged_check
from forethought.server.deps import ServicesDep, SubjectDep
from forethought.server.routes.paths import SUBJECT
from forethought.server.schemas.common import ERRORS
from forethought.server.schemas.pipeline import (
    AnswerOut,
    AskIn,
    BriefIn,
    BriefOut,
    CheckIn,
    CheckOut,
    RecallIn,
    RecallOut,
    TurnIn,
    TurnOut,
)

__all__ = ["router"]

router = APIRouter(prefix=SUBJECT, tags=["pipeline"], responses=ERRORS)


@router.post("/recall", summary="Hybrid search, each hit with why it ranked", response_model=RecallOut)
def recall(subject: SubjectDep, body: RecallIn) -> RecallOut:
    result = subject.memory.recall(
        subject.scope,
        body.query,
        k=body.k,
        kinds=body.kinds,
        tags=body.tags,
        statuses=body.statuses,
        as_of=body.as_of,
        after=body.after,
        before=body.before,
        strategy=body.strategy,
        token_budget=body.token_budget,
    )
    return RecallOut.of(result)


@router.post("/brief", summary="The memory that applies to a task, and its prompt block", response_model=BriefOut)
def brief(subject: SubjectDep, body: BriefIn) -> BriefOut:
    """A project's brief merges the organisation rules it inherits (reasons say "organisation rule")."""
    made, _ = merged_brief(subject.memory, subject.scope, body.task, limit=body.limit, file_paths=body.file_paths,
                           max_excerpts=body.max_excerpts)  # fmt: skip
    return BriefOut.of(made)


@router.post("/check", summary="Check a draft against memory", response_model=CheckOut)
def check(subject: SubjectDep, body: CheckIn) -> CheckOut:
    """A unified diff (`diff`: true, or detected when omitted) is checked by the lines it adds, file
    by file: each violation names its `path` and `line`; `path` is then the diff's own."""
    is_diff = looks_like_diff(body.draft) if body.diff is None else body.diff
    report, _ = merged_check(subject.memory, subject.scope, body.draft, path=None if is_diff else body.path,
                             diff=is_diff)  # fmt: skip
    return CheckOut.of(report, diff=is_diff)


@router.post("/ask", summary="Answer from memory alone, citing records", response_model=AnswerOut)
def ask(subject: SubjectDep, body: AskIn) -> AnswerOut:
    return AnswerOut.of(subject.memory.ask(subject.scope, body.question))


@router.post("/turns", summary="One governed turn: recall, brief, generate, check, remember", response_model=TurnOut)
def turn(subject: SubjectDep, services: ServicesDep, body: TurnIn) -> TurnOut:
    """The reply, its session and its trace id (`GET .../traces/{trace_id}` shows every stage)."""
    result = subject.memory.turn(subject.scope, body.message, session_id=body.session_id)
    services.metrics.turn(mode=result.trace.mode, blocked=result.blocked)
    return TurnOut.of(result)
