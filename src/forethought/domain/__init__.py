"""The domain model: spaces, sessions and turns, records, audit events, and their rules."""

from forethought.domain.audit import Action, AuditEvent
from forethought.domain.ids import handle_for, new_id, space_id_for
from forethought.domain.lifecycle import ALLOWED, check_transition, transition
from forethought.domain.records import (
    CheckPatterns,
    Evidence,
    Modality,
    Provenance,
    Record,
    Relation,
    RelationLabel,
    Role,
    Status,
)
from forethought.domain.sessions import Session, Turn
from forethought.domain.spaces import Space, SpaceKey

__all__ = [
    "ALLOWED",
    "Action",
    "AuditEvent",
    "CheckPatterns",
    "Evidence",
    "Modality",
    "Provenance",
    "Record",
    "Relation",
    "RelationLabel",
    "Role",
    "Session",
    "Space",
    "SpaceKey",
    "Status",
    "Turn",
    "check_transition",
    "handle_for",
    "new_id",
    "space_id_for",
    "transition",
]
