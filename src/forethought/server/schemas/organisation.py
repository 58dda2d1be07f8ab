"""The organisation rule set's routes: its rulebook, its documents, a project's overrides."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from forethought.projects.org import Override
from forethought.server.schemas.common import RecordOut
from forethought.server.schemas.records import MAX_REASON

__all__ = ["OverrideIn", "OverrideOut"]


class OverrideIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    why: str = Field(min_length=1, max_length=MAX_REASON, description="The reason, kept in the rule's audit trail.")


class OverrideOut(BaseModel):
    """An organisation rule a project overrides (or, after a restore, no longer does)."""

    record: RecordOut = Field(description="The organisation rule.")
    project: str
    overridden: bool = Field(description="False once restored: the project inherits the rule again.")
    reason: str
    by: str = Field(description="Who set the mark (the API key, as in the audit trail).")

    @classmethod
    def of(cls, override: Override, project: str) -> OverrideOut:
        return cls(record=RecordOut.of(override.record), project=project, overridden=override.active,
                   reason=override.reason, by=override.by)  # fmt: skip
