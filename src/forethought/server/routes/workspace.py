"""The caller's workspace: which one the key belongs to, and its apps with their subject counts."""

from __future__ import annotations

from collections import Counter

from fastapi import APIRouter

from forethought.plugins import registry
from forethought.server.deps import CallerDep, ServicesDep
from forethought.server.schemas.admin import AppOut, WorkspaceOut
from forethought.server.schemas.common import ERRORS

__all__ = ["router"]

router = APIRouter(prefix="/v1/workspace", tags=["keys"], responses=ERRORS)


@router.get("", summary="Your workspace (from your key) and its apps", response_model=WorkspaceOut)
def workspace(caller: CallerDep, services: ServicesDep) -> WorkspaceOut:
    held = Counter(space.key.subject_type for space in caller.memory.list_spaces(caller.workspace))
    apps = [registry().app(name) for name in registry().names("app")]
    return WorkspaceOut(
        workspace=caller.workspace,
        key_id=caller.key_id,
        role=caller.role,
        mode=services.mode,
        apps=[AppOut(app=a.name, subject_type=a.subject_type, subjects=held[a.subject_type]) for a in apps],
    )
