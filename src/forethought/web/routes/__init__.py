"""The workspace's routes, one module per page family; `router` holds them all, in order."""

from fastapi import APIRouter

from forethought.web.routes import (
    activity,
    auth,
    brief,
    chat,
    check,
    compare,
    imports,
    inbox,
    memory,
    missing,
    overview,
    rulebook,
    stale,
    subjects,
)

__all__ = ["router"]

router = APIRouter(include_in_schema=False)
for module in (
    auth,
    subjects,
    chat,
    brief,
    inbox,
    memory,
    overview,
    rulebook,
    stale,
    check,
    compare,
    activity,
    imports,
    missing,
):
    router.include_router(module.router)
