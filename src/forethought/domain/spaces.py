"""Spaces: the isolation unit. A space is named by a subject, never by a client-supplied id."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, field_validator

from forethought.domain.limits import check_name

__all__ = ["Space", "SpaceKey"]


class SpaceKey(BaseModel):
    """Who a space is about: a subject of some type within a workspace."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    workspace: str = "default"
    subject_type: str = "generic"
    subject_id: str

    @field_validator("workspace", "subject_type", "subject_id", mode="before")
    @classmethod
    def _clean(cls, value: object) -> str:
        return check_name(value, field="space name")


class Space(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    key: SpaceKey
    created_at: datetime
