"""Promoting a past-session excerpt to memory: the passage becomes a candidate that goes through the
same validator, scrubbing, relation and review policy as anything captured (a team decision still
waits for a person), quoting the stored turn verbatim.

Without a `kind`, the app's own extractor reads the passage (a rule the project app recognises gets
its kind and attributes from it); with one, the passage is filed as that kind, its statement the
caller's or the passage itself, its attributes from the app's slot filler where it has one.
"""

from __future__ import annotations

from forethought.apps.base import App
from forethought.domain import Evidence, Role, Session, Turn
from forethought.domain.candidates import Candidate
from forethought.domain.limits import clean_text
from forethought.errors import InvalidInput, NotFound
from forethought.memory import Memory, Scope
from forethought.pipeline.capture import scrub
from forethought.pipeline.review import Submission, submit
from forethought.pipeline.validator import validate

__all__ = ["MAX_QUOTE", "promote_excerpt"]

MAX_QUOTE = 2_000
MAX_STATEMENT = 1_000


def promote_excerpt(
    memory: Memory,
    scope: Scope,
    session_id: str,
    turn_index: int,
    quote: str,
    *,
    kind: str | None = None,
    statement: str | None = None,
    source: str = "api",
) -> Submission:
    """File `quote` (verbatim from turn `turn_index` of session `session_id`) as a candidate.
    InvalidInput when the quote is not in that turn, the kind is not the app's, or the extractor
    finds nothing to remember in it and no kind was given; NotFound for another space's session."""
    app = scope.app
    quote = clean_text(quote, field="quote", limit=MAX_QUOTE).strip()
    if statement is not None:
        statement = clean_text(statement, field="statement", limit=MAX_STATEMENT).strip() or None
    if kind is not None and kind not in app.kinds:
        raise InvalidInput(f"kind: {kind!r} is not a kind of the {app.name} app ({', '.join(app.kinds)})")
    space = memory.space_of(scope, create=False)
    if space is None:
        raise NotFound(f"no session {session_id!r} in this space")
    session = memory.store.sessions.get(space.id, session_id)
    turn = next((t for t in session.turns if t.index == turn_index), None)
    if turn is None:
        raise NotFound(f"no turn {turn_index} in session {session_id!r}")
    if not quote or quote not in turn.text:
        raise InvalidInput("quote: must be a verbatim passage of that turn (copy it from the brief's excerpt)")
    view = session.model_copy(update={"turns": (turn,)})
    candidates = _from_kind(app, kind, statement, quote, session, turn) if kind else _extracted(app, view, turn, quote)
    if not candidates:
        raise InvalidInput(f"nothing to remember was found in this passage: give a kind ({', '.join(app.kinds)})")
    report = validate(candidates, view, app).validated
    return submit(
        memory,
        scope,
        report.accepted,
        report.rejected,
        occurred_at=turn.occurred_at or session.created_at,
        source=source,
        scrub=lambda text: scrub(text, app),
    )


def _extracted(app: App, view: Session, turn: Turn, quote: str) -> list[Candidate]:
    passage = view.model_copy(update={"turns": (turn.model_copy(update={"text": quote}),)})
    return [c.model_copy(update={"extractor": f"{c.extractor}+excerpt"}) for c in app.extract(passage)]


def _from_kind(app: App, kind: str, statement: str | None, quote: str, session: Session, turn: Turn) -> list[Candidate]:
    text = statement or " ".join(quote.split())
    return [
        Candidate(
            kind=kind,
            statement=text,
            attributes=app.slots(kind, text) or {},
            evidence=[Evidence(quote=quote, session_id=session.id, turn_index=turn.index, role=turn.role)],
            confidence=0.6,
            asserted_by=turn.role if turn.role in (Role.USER, Role.AGENT) else Role.USER,
            extractor="excerpt",
        )
    ]
