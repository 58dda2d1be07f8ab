"""API keys of the caller's own workspace: create (shown once), list, revoke. Admin keys only."""

from __future__ import annotations

from fastapi import APIRouter

from forethought.server.deps import AdminDep, PageDep
from forethought.server.pagination import slice_sorted
from forethought.server.schemas.admin import KeyCreate, KeyCreated, KeyOut
from forethought.server.schemas.common import ERRORS, Page

__all__ = ["router"]

router = APIRouter(prefix="/v1/keys", tags=["keys"], responses=ERRORS)


@router.post("", status_code=201, summary="Create an API key for your workspace", response_model=KeyCreated)
def create_key(caller: AdminDep, body: KeyCreate | None = None) -> KeyCreated:
    """The full key is in this response only; the server keeps its hash. A member key unless
    `role` says `admin`."""
    asked = body or KeyCreate()
    key, full = caller.memory.create_api_key(caller.workspace, name=asked.name, role=asked.role)
    return KeyCreated(**KeyOut.of(key).model_dump(), key=full)


@router.get("", summary="List your workspace's keys (never their secrets)", response_model=Page[KeyOut])
def list_keys(caller: AdminDep, page: PageDep) -> Page[KeyOut]:
    keys = caller.memory.list_api_keys(caller.workspace)
    items, cursor = slice_sorted(keys, lambda k: f"{k.created_at.isoformat()}|{k.id}", page.cursor, page.limit)
    return Page(items=[KeyOut.of(k) for k in items], next_cursor=cursor)


@router.delete("/{key_id}", summary="Revoke a key of your workspace", response_model=KeyOut)
def revoke_key(caller: AdminDep, key_id: str) -> KeyOut:
    return KeyOut.of(caller.memory.revoke_api_key(key_id, workspace=caller.workspace))
