"""`create_app(memory, settings)`: the FastAPI application over the one façade.

Middleware, outermost first: security headers and the Host check (every response, refusals
included, carries the same headers), metrics (times and counts every request, refusals included),
request limits (body size, JSON depth), CORS only when origins are configured. Errors all leave
through `errors.install_error_handlers`, in one envelope.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

import forethought
from forethought import web
from forethought.facade import Forethought
from forethought.server.errors import install_error_handlers
from forethought.server.headers import SecurityHeaders
from forethought.server.indexsync import IndexSyncer
from forethought.server.limits import RequestLimits
from forethought.server.metrics import MetricsMiddleware
from forethought.server.routes import ROUTERS
from forethought.server.services import Services
from forethought.server.settings import ServerSettings

__all__ = ["create_app"]

DESCRIPTION = """Governed memory for LLM agents: recall before the model answers, check after.

Every `/v1` route needs an API key (`Authorization: Bearer <key>` or `X-API-Key: <key>`) and acts
only on the key's workspace. A subject's memory lives at `/v1/apps/{app}/subjects/{subject_id}`;
the server derives the space from your workspace, the app's subject type and the subject id.
Every error has the shape `{"error": {"code", "message", "details"}}`. Lists take `limit` and
`cursor` and return `next_cursor`. See docs/api.md.
"""

TAGS = [
    {"name": "health", "description": "Liveness, readiness and metrics (no API key)."},
    {"name": "keys", "description": "API keys of your workspace."},
    {"name": "subjects", "description": "The subjects (spaces) an app holds in your workspace."},
    {"name": "sessions", "description": "Captured transcripts."},
    {"name": "records", "description": "Memories: retain, read, supersede, retract, forget."},
    {"name": "inbox", "description": "Review of candidate memories."},
    {"name": "pipeline", "description": "Recall, brief, check, ask and the governed turn."},
    {"name": "traces", "description": "Traces of turns and the audit trail."},
]


def create_app(memory: Forethought | Services, settings: ServerSettings | None = None) -> FastAPI:
    """The application. `memory` is the façade (or prepared `Services` around it); the caller
    owns it and closes it after the server stops."""
    services = memory if isinstance(memory, Services) else Services(memory, settings or ServerSettings())
    config = services.settings

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # The pool FastAPI runs sync handlers and dependencies in belongs to the event loop, so it
        # is sized once the loop runs.
        anyio.to_thread.current_default_thread_limiter().total_tokens = config.worker_threads
        syncer = IndexSyncer(services.memory, interval_s=config.index_sync_s)
        if services.memory.engine.remote:
            syncer.start()
        app.state.index_syncer = syncer
        yield
        await anyio.to_thread.run_sync(syncer.stop)
        web = getattr(app.state, "web", None)
        if web is not None:  # imports still running finish before the store they write to closes
            await anyio.to_thread.run_sync(web.imports.wait)

    app = FastAPI(
        title="Forethought",
        version=forethought.__version__,
        description=DESCRIPTION,
        openapi_tags=TAGS,
        lifespan=lifespan,
    )
    app.state.services = services
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(web.router)  # the server-rendered workspace under /web (docs/web.md)
    install_error_handlers(app)
    if config.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(config.cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type"],
            expose_headers=["Retry-After"],
        )
    app.add_middleware(RequestLimits, max_body_bytes=config.max_body_bytes, max_json_depth=config.max_json_depth)
    app.add_middleware(MetricsMiddleware, metrics=services.metrics)
    app.add_middleware(SecurityHeaders, allowed_hosts=config.allowed_hosts)
    return app
