"""The pipeline half of the façade: the governed turn, sessions, the inbox, brief, check and ask.

`Forethought` inherits these methods; each is a thin call into its stage module so the REST
routes, MCP tools, CLI commands and web pages all share one implementation. `app` is an App or
the name of a registered one; `space` is a SpaceKey or a subject name within that app.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forethought.apps.base import App
from forethought.domain import Record, Session, SpaceKey, Status, Turn
from forethought.domain.candidates import Candidate, Rejection
from forethought.errors import NotFound

if TYPE_CHECKING:  # the stage modules import the façade; load them when called, not at import
    from forethought.facade import Forethought
    from forethought.llm.base import ChatModel
    from forethought.pipeline.memorize import Memorized
    from forethought.pipeline.reports import Answer, Brief, CheckReport
    from forethought.pipeline.turn import TurnResult

__all__ = ["Extracted", "Inbox", "PipelineApi", "SessionSubmission", "app_key", "dry_run", "resolve_app"]

AppRef = App | str
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


def resolve_app(app: AppRef) -> App:
    if isinstance(app, App):
        return app
    from forethought.plugins import get_app

    return get_app(app)


def app_key(app: App, space: SpaceKey | str, workspace: str = "default") -> SpaceKey:
    if isinstance(space, SpaceKey):
        return space
    return SpaceKey(workspace=workspace, subject_type=app.subject_type, subject_id=space)


def dry_run(app: App, transcript: bytes | str, *, model: ChatModel | None, fmt: str = "auto") -> Extracted:
    """Parse, scrub, extract and validate a transcript without touching any store."""
    from forethought.domain.ids import new_id
    from forethought.domain.times import utcnow
    from forethought.pipeline.capture import scrub
    from forethought.pipeline.extract import extract_candidates
    from forethought.pipeline.transcripts import parse_transcript
    from forethought.pipeline.validator import validate

    turns = [t.model_copy(update={"text": scrub(t.text, app)}) for t in parse_transcript(transcript, fmt=fmt)]
    session = Session(id=new_id(), space_id="dry-run", title="dry run", created_at=utcnow(), turns=tuple(turns))
    extraction = extract_candidates(session, app, model)
    report = validate(extraction.candidates, session, app)
    return Extracted(
        turns=turns,
        candidates=report.validated.accepted,
        rejected=[*extraction.rejected, *report.validated.rejected],
        mode=extraction.mode,
        degraded=extraction.degraded,
    )


def _memory(api: PipelineApi) -> Forethought:
    from forethought.facade import Forethought

    assert isinstance(api, Forethought)  # PipelineApi is only ever mixed into the façade
    return api


class PipelineApi:
    """Mixed into `Forethought` (and only into it)."""

    model: ChatModel | None

    def _app_key(self, app: AppRef, space: SpaceKey | str) -> tuple[App, SpaceKey]:
        resolved = resolve_app(app)
        try:
            return resolved, app_key(resolved, space)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            from forethought.errors import InvalidInput, validation_reason

            raise InvalidInput(validation_reason(exc)) from None

    def turn(
        self,
        app: AppRef,
        space: SpaceKey | str,
        message: str,
        *,
        session_id: str | None = None,
        brief_limit: int = 5,
    ) -> TurnResult:
        """One governed turn (see `pipeline.turn`): the reply, the session it belongs to, its trace."""
        from forethought.pipeline.turn import run_turn

        resolved, key = self._app_key(app, space)
        return run_turn(
            _memory(self), resolved, key, message, session_id=session_id, model=self.model, brief_limit=brief_limit
        )

    def brief(
        self,
        app: AppRef,
        space: SpaceKey | str,
        task: str,
        *,
        limit: int = 5,
        file_paths: Sequence[str] = (),
    ) -> Brief:
        from forethought.domain.limits import check_query
        from forethought.pipeline.brief import build_brief

        resolved, key = self._app_key(app, space)
        return build_brief(
            _memory(self), resolved, key, check_query(task), model=self.model, limit=limit, file_paths=file_paths
        )

    def check(
        self, app: AppRef, space: SpaceKey | str, draft: str, *, records: Sequence[Record] | None = None
    ) -> CheckReport:
        from forethought.domain.limits import clean_text
        from forethought.pipeline.check import MAX_DRAFT_CHARS, check_draft

        resolved, key = self._app_key(app, space)
        text = clean_text(draft, field="draft", limit=MAX_DRAFT_CHARS)
        return check_draft(_memory(self), resolved, key, text, records=records, model=self.model)

    def ask(self, app: AppRef, space: SpaceKey | str, question: str) -> Answer:
        from forethought.pipeline.ask import ask

        resolved, key = self._app_key(app, space)
        return ask(_memory(self), resolved, key, question, model=self.model)  # ask() checks the question

    def extract(self, app: AppRef, transcript: bytes | str, *, fmt: str = "auto") -> Extracted:
        """What a transcript would give to remember — validated, nothing written."""
        return dry_run(resolve_app(app), transcript, model=self.model, fmt=fmt)

    def submit_session(
        self,
        app: AppRef,
        space: SpaceKey | str,
        transcript: bytes | str | Sequence[Turn],
        *,
        title: str,
        fmt: str = "auto",
        source: str = "import",
        progress: Progress | None = None,
    ) -> SessionSubmission:
        """Capture a transcript (secrets scrubbed) and send what it gives to remember to the inbox.
        `progress`, when given, is called with each stage as it finishes: captured, extracted,
        validated, filed (a long transcript spends most of its time extracting)."""
        from forethought.pipeline.capture import capture_session
        from forethought.pipeline.memorize import memorize
        from forethought.pipeline.transcripts import parse_transcript

        resolved, key = self._app_key(app, space)
        # Bad input fails here, before any write.
        turns = (
            list(transcript)
            if isinstance(transcript, Sequence) and not isinstance(transcript, (str, bytes))
            else parse_transcript(transcript, fmt=fmt)
        )
        memory = _memory(self)
        space_ = memory.space(key)
        session = capture_session(memory, resolved, space_, turns, title=title, source=source)
        if progress is not None:
            progress("captured")
        result = memorize(memory, resolved, space_, session, model=self.model, source=source, progress=progress)
        return SessionSubmission(session=session, result=result)

    def inbox(self, space: SpaceKey | str, app: AppRef = "generic", *, limit: int = 200) -> Inbox:
        _, key = self._app_key(app, space)
        memory = _memory(self)
        pending = memory.list_records(key, statuses=(Status.CANDIDATE,), limit=limit)
        rejected = memory.list_records(key, statuses=(Status.REJECTED,), limit=limit)
        return Inbox(
            pending=pending, filtered=[r for r in rejected if any(f.startswith("validator:") for f in r.flags)]
        )

    def _space_id(self, app: AppRef, space: SpaceKey | str) -> str | None:
        """The id of the space, or None when it does not exist yet: reads never create one."""
        _, key = self._app_key(app, space)
        try:
            return _memory(self).space(key, create=False).id
        except LookupError:
            return None

    def list_sessions(
        self, space: SpaceKey | str, app: AppRef = "generic", *, limit: int = 50, before_id: str | None = None
    ) -> list[Session]:
        """Captured sessions, newest first; `before_id` continues after a session of an earlier page."""
        space_id = self._space_id(app, space)
        if space_id is None:
            return []
        return _memory(self).store.sessions.list(space_id, limit=limit, before_id=before_id)

    def get_session(self, space: SpaceKey | str, session_id: str, app: AppRef = "generic") -> Session:
        """One captured session with its turns; NotFound for an unknown id or one of another space."""
        space_id = self._space_id(app, space)
        if space_id is None:
            raise NotFound(f"no session {session_id!r} in this space")
        return _memory(self).store.sessions.get(space_id, session_id)

    def list_traces(
        self, space: SpaceKey | str, app: AppRef = "generic", *, limit: int = 50, before_id: str | None = None
    ) -> list[dict[str, Any]]:
        """Stored traces, newest first; `before_id` continues after a trace of an earlier page."""
        space_id = self._space_id(app, space)
        if space_id is None:
            return []
        return _memory(self).store.traces.list(space_id, limit=limit, before_id=before_id)

    def trace(self, space: SpaceKey | str, trace_id: str, app: AppRef = "generic") -> dict[str, Any]:
        """One stored trace; NotFound for an unknown id or one of another space."""
        space_id = self._space_id(app, space)
        if space_id is None:
            raise NotFound(f"no trace {trace_id!r} in this space")
        return _memory(self).store.traces.get(space_id, trace_id)
