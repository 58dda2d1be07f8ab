"""Remembering from a session: extract → validate → relate → review → retain, in that order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from forethought.domain import Session
from forethought.llm.base import ChatModel, Usage
from forethought.memory import Memory, Scope
from forethought.pipeline.capture import scrub
from forethought.pipeline.extract import extract_candidates
from forethought.pipeline.review import Submission, submit
from forethought.pipeline.trace import RejectedItem, Remembered
from forethought.pipeline.validator import validate

__all__ = ["Memorized", "memorize"]


@dataclass(frozen=True)
class Memorized:
    submission: Submission
    mode: str
    degraded: str | None = None
    usage: Usage = field(default_factory=Usage)
    proposed: int = 0
    merged_in_session: int = 0

    def summary(self) -> Remembered:
        """Counts and reasons for a trace (handles, rules and reasons only — no memory text)."""
        s = self.submission
        return Remembered(
            mode=self.mode,
            proposed=self.proposed,
            merged_in_session=self.merged_in_session,
            auto_approved=[i.record.handle for i in s.items if i.outcome == "approved"],
            pending_review=[i.record.handle for i in s.items if i.outcome == "pending"],
            added_evidence_to=[i.record.handle for i in s.items if i.outcome == "merged"],
            rejected=[RejectedItem(kind=r.candidate.kind, rule=r.rule, reason=r.reason) for r in s.rejected],
        )


def memorize(
    memory: Memory,
    scope: Scope,
    session: Session,
    *,
    model: ChatModel | None,
    turn_indexes: Sequence[int] | None = None,
    source: str,
    occurred_at: datetime | None = None,
    progress: Callable[[str], None] | None = None,
) -> Memorized:
    """Propose, check and file what a session (or just some of its turns) gives to remember;
    `progress` hears "extracted", "validated" and "filed" as each stage finishes."""
    app = scope.app
    tell = progress or (lambda stage: None)
    view = session
    if turn_indexes is not None:
        wanted = set(turn_indexes)
        view = session.model_copy(update={"turns": tuple(t for t in session.turns if t.index in wanted)})
    extraction = extract_candidates(view, app, model)
    tell("extracted")
    report = validate(extraction.candidates, view, app)
    checked = report.validated
    tell("validated")
    submission = submit(
        memory,
        scope,
        checked.accepted,
        [*extraction.rejected, *checked.rejected],
        occurred_at=occurred_at or session.created_at,
        source=source,
        scrub=lambda text: scrub(text, app),
    )
    tell("filed")
    return Memorized(
        submission=submission,
        mode=extraction.mode,
        degraded=extraction.degraded,
        usage=extraction.usage,
        proposed=len(extraction.candidates) + len(extraction.rejected),
        merged_in_session=checked.merged,
    )
