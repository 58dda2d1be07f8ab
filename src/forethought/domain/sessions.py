"""Sessions and turns: raw captured material, stored verbatim (the system of record)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain.records import Role

__all__ = ["Session", "Turn"]


class Turn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    role: Role
    text: str
    speaker: str | None = None
    occurred_at: datetime | None = None


class Session(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    space_id: str
    title: str
    source: str = "api"
    created_at: datetime
    turns: tuple[Turn, ...] = ()
    metadata: dict[str, Any] = Field(default_factory=dict)
