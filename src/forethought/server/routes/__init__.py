"""One APIRouter per resource; `ROUTERS` is the order they are mounted in."""

from fastapi import APIRouter

from forethought.server.routes import (
    health,
    inbox,
    keys,
    organisation,
    pipeline,
    project,
    records,
    sessions,
    subjects,
    traces,
    workspace,
)

__all__ = ["ROUTERS"]

ROUTERS: list[APIRouter] = [
    health.router,
    workspace.router,
    keys.router,
    subjects.router,
    sessions.router,
    records.router,
    inbox.router,
    pipeline.router,
    project.router,
    organisation.router,
    traces.router,
]
