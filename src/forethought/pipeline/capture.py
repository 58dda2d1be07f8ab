"""Capture: storing what was said, with secrets (and, by the app's policy, personal data) removed.

Turns are the system of record and are kept verbatim — except that a secret never reaches the
database: API keys, tokens, passwords, private keys and credentials in connection strings are
replaced by placeholders before anything is written. Card numbers are always replaced; emails and
phone numbers too when the app's policy is "redact". The scrubbed sentences a brief may quote are
embedded here and stored with the turns (`quotable.py`); `append_turns` adds a turn the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from forethought.apps.base import App
from forethought.domain import Action, AuditEvent, Session, Turn, new_id
from forethought.domain.limits import check_name
from forethought.domain.times import utcnow
from forethought.memory import Memory, Scope
from forethought.pipeline.quotable import sentence_vectors
from forethought.text.detectors import Span, find_cards, find_personal_data, find_secrets, redact_all

__all__ = ["append_turn", "capture_session", "scrub"]


def scrub(text: str, app: App | None = None) -> str:
    """`text` with secrets, card numbers and (under a "redact" policy) other personal data replaced."""
    personal = find_personal_data if app is not None and app.personal_data == "redact" else find_cards

    def finder(value: str) -> list[Span]:
        return [*find_secrets(value), *personal(value)]

    # redact_all also catches what hides behind full-width letters or zero-width characters.
    return redact_all(text, finder)[0]


def capture_session(
    memory: Memory,
    scope: Scope,
    turns: Sequence[Turn],
    *,
    title: str,
    source: str,
    created_at: datetime | None = None,
    metadata: dict[str, object] | None = None,
) -> Session:
    app, space = scope.app, scope.space()
    when = created_at or utcnow()
    clean = tuple(t.model_copy(update={"text": scrub(t.text, app), "index": i}) for i, t in enumerate(turns))
    session = Session(
        id=new_id(),
        space_id=space.id,
        title=check_name(title, field="title"),
        source=source,
        created_at=when,
        turns=clean,
        metadata=dict(metadata or {}),
    )
    event = AuditEvent(
        id=new_id(),
        space_id=space.id,
        action=Action.SESSION_CAPTURED,
        actor=memory.actor,
        at=when,
        details={"session": session.id, "turns": len(clean), "source": source},
    )
    # The sentences a brief may quote are embedded now, once (`quotable`), and kept with the turns.
    memory.store.sessions.add(session, [event], sentence_vectors(clean, source=source))
    return session


def append_turn(memory: Memory, scope: Scope, session: Session, turn: Turn, *, source: str = "chat") -> None:
    """Add one turn at the end of a stored session, scrubbed, with its quotable sentences' vectors."""
    clean = turn.model_copy(update={"text": scrub(turn.text, scope.app)})
    vectors = sentence_vectors([clean], source=source)
    memory.store.sessions.append_turns(session.space_id, session.id, [clean], vectors)
