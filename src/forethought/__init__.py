"""Forethought: governed memory for LLM agents — recall before the model answers, check after.

from forethought import Forethought
with Forethought.open("memory.db") as memory:
    acme = memory.scope("project", "acme")  # one Scope names the subject in every call
    memory.retain(acme, "We deploy on Fridays only after the freeze review.", kind="decision")
    for hit in memory.recall(acme, "can we deploy on friday?").hits:
        print(hit.record.handle, hit.record.statement, hit.explain())
"""

from forethought.domain import (
    AuditEvent,
    Evidence,
    Provenance,
    Record,
    Role,
    Session,
    Space,
    SpaceKey,
    Status,
    Turn,
)
from forethought.errors import (
    BackendError,
    Conflict,
    ForethoughtError,
    IntegrityError,
    InvalidInput,
    InvalidTransition,
    ModelUnavailable,
    NotFound,
    StoreBusy,
)
from forethought.facade import Forethought, History, Retained, RetainItem, Scope
from forethought.recall import PRESETS, RecallConfig, RecallHit, RecallResult, SignalScore

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "AuditEvent",
    "BackendError",
    "Conflict",
    "Evidence",
    "Forethought",
    "ForethoughtError",
    "History",
    "IntegrityError",
    "InvalidInput",
    "InvalidTransition",
    "ModelUnavailable",
    "NotFound",
    "Provenance",
    "RecallConfig",
    "RecallHit",
    "RecallResult",
    "Record",
    "RetainItem",
    "Retained",
    "Role",
    "Scope",
    "Session",
    "SignalScore",
    "Space",
    "SpaceKey",
    "Status",
    "StoreBusy",
    "Turn",
    "__version__",
]
