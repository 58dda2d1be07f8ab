"""What the app tests share: a session built from (role, text) turns."""

from __future__ import annotations

from datetime import UTC, datetime

from forethought.domain import Role, Session, Turn

T0 = datetime(2025, 3, 1, tzinfo=UTC)


def session(*turns: tuple[str, str], sid: str = "s1") -> Session:
    """A session whose turns are indexed in the order given."""
    return Session(
        id=sid,
        space_id="space",
        title="t",
        created_at=T0,
        turns=tuple(Turn(index=i, role=Role(role), text=text) for i, (role, text) in enumerate(turns)),
    )
