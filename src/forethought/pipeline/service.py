"""`Pipeline`: the governed turn, sessions, the inbox, brief, check and ask over one `Memory`.

Each method is a thin call into its stage module, so the REST routes, MCP tools, CLI commands and
web pages share one implementation (through the façade). Every method that touches a subject takes
the `Scope` the caller resolved once; the scope's app decides extraction, review and policies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from forethought.apps.base import App
from forethought.domain import AuditEvent, Record, Session, Status, Turn, new_id
from forethought.domain.candidates import Candidate, Rejection
from forethought.domain.documents import SourceDocument
from forethought.domain.limits import check_query, clean_text
from forethought.domain.times import parse_time, utcnow
from forethought.errors import NotFound
from forethought.llm.base import ChatModel
from forethought.memory import Memory, Scope
from forethought.pipeline.ask import ask
from forethought.pipeline.brief import build_brief
from forethought.pipeline.capture import capture_session, scrub
from forethought.pipeline.check import MAX_DRAFT_CHARS, MAX_PATH_CHARS, check_draft
from forethought.pipeline.diffs import check_diff
from forethought.pipeline.documents import DocumentImport, file_documents
from forethought.pipeline.extract import extract_candidates
from forethought.pipeline.memorize import Memorized, memorize
from forethought.pipeline.promote import promote_excerpt
from forethought.pipeline.reports import Answer, Brief, CheckReport
from forethought.pipeline.review import Submission, approve, approve_all
from forethought.pipeline.staleness import Verdict, note_review
from forethought.pipeline.trace import TURN, Trace
from forethought.pipeline.transcripts import parse_transcript, started_at
from forethought.pipeline.turn import TurnResult, run_turn
from forethought.pipeline.validator import validate

__all__ = ["Extracted", "Inbox", "Pipeline", "SessionSubmission", "dry_run"]

Progress = Callable[[str], None]  # told each stage of a submission as it finishes


@dataclass(frozen=True)
class Extracted:
    """A dry run: what a transcript would give, nothing written."""

    turns: list[Turn]
    candidates: list[Candidate]
    rejected: list[Rejection]
    mode: str
    degraded: str | None


@dataclass(frozen=True)
class SessionSubmission:
    session: Session
    result: Memorized


@dataclass(frozen=True)
class Inbox:
    pending: list[Record]  # candidates waiting for a person
    filtered: list[Record]  # candidates the validator rejected, each with its rule in `flags`


def dry_run(
    app: App, transcript: bytes | str, *, model: ChatModel | None, fmt: str = "auto", human: str | None = None
) -> Extracted:
    """Parse, scrub, extract and validate a transcript without touching any store."""
    parsed = parse_transcript(transcript, fmt=fmt, human=human)
    turns = [t.model_copy(update={"text": scrub(t.text, app)}) for t in parsed]
    when = started_at(turns) or utcnow()
    session = Session(id=new_id(), space_id="dry-run", title="dry run", created_at=when, turns=tuple(turns))
    extraction = extract_candidates(session, app, model)
    report = validate(extraction.candidates, session, app)
    return Extracted(
        turns=turns,
        candidates=report.validated.accepted,
        rejected=[*extraction.rejected, *report.validated.rejected],
        mode=extraction.mode,
        degraded=extraction.degraded,
    )


class Pipeline:
    """The stages, run on one memory with one chat model (None: the heuristic mode)."""

    def __init__(self, memory: Memory, model: ChatModel | None = None) -> None:
        self.memory = memory
        self.model = model

    def turn(self, scope: Scope, message: str, *, session_id: str | None = None, brief_limit: int = 5) -> TurnResult:
        """One governed turn (see `pipeline.turn`): the reply, the session it belongs to, its trace."""
        self.memory.own(scope)
        return run_turn(self.memory, scope, message, session_id=session_id, model=self.model, brief_limit=brief_limit)

    def brief(
        self, scope: Scope, task: str, *, limit: int = 5, file_paths: Sequence[str] = (), max_excerpts: int = 3
    ) -> Brief:
        self.memory.own(scope)
        return build_brief(
            self.memory, scope, check_query(task), model=self.model, limit=limit, file_paths=file_paths,
            max_excerpts=max_excerpts,
        )  # fmt: skip

    def check(
        self,
        scope: Scope,
        draft: str,
        *,
        records: Sequence[Record] | None = None,
        path: str | None = None,
        diff: bool = False,
    ) -> CheckReport:
        """A draft's violations of memory; with `diff`, the lines a unified diff adds, file by file."""
        self.memory.own(scope)
        if diff:
            return check_diff(self.memory, scope, clean_text(draft, field="diff", limit=4 * MAX_DRAFT_CHARS),
                              model=self.model)  # fmt: skip
        text = clean_text(draft, field="draft", limit=MAX_DRAFT_CHARS)
        where = clean_text(path, field="path", limit=MAX_PATH_CHARS) if path is not None else None
        return check_draft(self.memory, scope, text, records=records, model=self.model, path=where)

    def ask(self, scope: Scope, question: str) -> Answer:
        self.memory.own(scope)
        return ask(self.memory, scope, question, model=self.model)  # ask() checks the question

    def extract(self, app: App, transcript: bytes | str, *, fmt: str = "auto", human: str | None = None) -> Extracted:
        """What a transcript would give to remember — validated, nothing written."""
        return dry_run(app, transcript, model=self.model, fmt=fmt, human=human)

    def submit_session(
        self,
        scope: Scope,
        transcript: bytes | str | Sequence[Turn],
        *,
        title: str,
        fmt: str = "auto",
        source: str = "import",
        human: str | None = None,
        occurred_at: datetime | None = None,
        progress: Progress | None = None,
    ) -> SessionSubmission:
        """Capture a transcript (secrets scrubbed) and send what it gives to remember to the inbox.
        `human` names the person in a transcript between named speakers; `occurred_at` dates a
        session whose transcript carries no times (it wins over the transcript's own times).
        `progress`, when given, is called with each stage as it finishes: captured, extracted,
        validated, filed (a long transcript spends most of its time extracting)."""
        self.memory.own(scope)
        # Bad input fails here, before any write.
        when = None if occurred_at is None else parse_time(occurred_at, field="occurred_at", zoned=True)
        turns = (
            list(transcript)
            if isinstance(transcript, Sequence) and not isinstance(transcript, (str, bytes))
            else parse_transcript(transcript, fmt=fmt, human=human)
        )
        # An imported session is dated when it happened (its first timestamped turn, or what the
        # caller says), so what it gives to remember is too; a live one without times is dated now.
        when = when or started_at(turns)
        session = capture_session(self.memory, scope, turns, title=title, source=source, created_at=when)
        if progress is not None:
            progress("captured")
        result = memorize(self.memory, scope, session, model=self.model, source=source, progress=progress)
        return SessionSubmission(session=session, result=result)

    def file_documents(
        self, scope: Scope, documents: Sequence[SourceDocument], *, progress: Callable[[int, int], None] | None = None
    ) -> DocumentImport:
        """File source documents as sessions whose proposals reach the inbox (`pipeline.documents`)."""
        self.memory.own(scope)
        return file_documents(self.memory, scope, documents, model=self.model, progress=progress)

    def promote_excerpt(
        self,
        scope: Scope,
        session_id: str,
        turn_index: int,
        quote: str,
        *,
        kind: str | None = None,
        statement: str | None = None,
        source: str = "api",
    ) -> Submission:
        """A brief's past-session excerpt as a candidate record, through validation and review."""
        self.memory.own(scope)
        return promote_excerpt(
            self.memory, scope, session_id, turn_index, quote, kind=kind, statement=statement, source=source
        )

    # -- review ----------------------------------------------------------------------------
    def note_review(
        self, scope: Scope, record_id: str, verdict: Verdict, *, reason: str | None = None, subject: str | None = None
    ) -> AuditEvent:
        """A review mark on a current record (see `pipeline.staleness`)."""
        self.memory.own(scope)
        return note_review(self.memory, scope, record_id, verdict, reason=reason, subject=subject)

    def inbox(self, scope: Scope, *, limit: int = 200) -> Inbox:
        self.memory.own(scope)
        pending = self.memory.list_records(scope, statuses=(Status.CANDIDATE,), limit=limit)
        rejected = self.memory.list_records(scope, statuses=(Status.REJECTED,), limit=limit)
        return Inbox(
            pending=pending, filtered=[r for r in rejected if any(f.startswith("validator:") for f in r.flags)]
        )

    def approve(
        self,
        scope: Scope,
        record_id: str,
        *,
        reason: str | None = None,
        conflict: Literal["supersede", "keep_both"] | None = None,
        supersedes: str | None = None,
    ) -> Record:
        """Approve a candidate. A flagged one must be edited first; one that supersedes a record
        retires it; one that conflicts with a record needs `conflict` to say which way. With
        `supersedes` (an active record's id or handle) the reviewer names the record it replaces."""
        self.memory.own(scope)
        return approve(self.memory, scope, record_id, conflict=conflict, reason=reason, supersedes=supersedes)

    def approve_all(self, scope: Scope, *, high_confidence: bool = False) -> list[Record]:
        """Approve every unflagged, conflict-free candidate (with `high_confidence`: ≥ 0.8 and new)."""
        self.memory.own(scope)
        return approve_all(self.memory, scope, high_confidence=high_confidence)

    # -- sessions and traces ---------------------------------------------------------------
    def list_sessions(self, scope: Scope, *, limit: int = 50, before_id: str | None = None) -> list[Session]:
        """Captured sessions, newest first; `before_id` continues after a session of an earlier page."""
        space = self.memory.space_of(scope, create=False)
        if space is None:
            return []
        return self.memory.store.sessions.list(space.id, limit=limit, before_id=before_id)

    def get_session(self, scope: Scope, session_id: str) -> Session:
        """One captured session with its turns; NotFound for an unknown id or one of another space."""
        space = self.memory.space_of(scope, create=False)
        if space is None:
            raise NotFound(f"no session {session_id!r} in this space")
        return self.memory.store.sessions.get(space.id, session_id)

    def list_traces(self, scope: Scope, *, limit: int = 50, before_id: str | None = None) -> list[Trace]:
        """Stored traces, newest first; `before_id` continues after a trace of an earlier page."""
        space = self.memory.space_of(scope, create=False)
        if space is None:
            return []
        found = self.memory.store.traces.list(space.id, limit=limit, before_id=before_id, kind=TURN)
        return [Trace.from_stored(data) for data in found]

    def trace(self, scope: Scope, trace_id: str) -> Trace:
        """One stored trace; NotFound for an unknown id or one of another space."""
        space = self.memory.space_of(scope, create=False)
        if space is None:
            raise NotFound(f"no trace {trace_id!r} in this space")
        return Trace.from_stored(self.memory.store.traces.get(space.id, trace_id, kind=TURN))
