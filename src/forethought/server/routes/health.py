"""Liveness, readiness and metrics: the routes an orchestrator and a scraper call."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

import forethought
from forethought.server.deps import ServicesDep
from forethought.server.errors import ApiError
from forethought.server.schemas.admin import HealthOut, ReadyOut
from forethought.server.schemas.common import ErrorOut

__all__ = ["router"]

router = APIRouter(tags=["health"])
_metrics_bearer = HTTPBearer(auto_error=False, scheme_name="MetricsToken", description="The operator's metrics token.")


@router.get("/health", summary="Liveness: the process answers", response_model=HealthOut)
async def health() -> HealthOut:
    # async and touching nothing: it must answer even while every worker thread is busy.
    return HealthOut(version=forethought.__version__)


@router.get(
    "/ready",
    summary="Readiness: the store answers",
    response_model=ReadyOut,
    responses={503: {"model": ErrorOut, "description": "Still starting, or the store is unreachable."}},
)
def ready(services: ServicesDep) -> ReadyOut:
    """200 once the store answers and start-up work (model loading, demo data) has finished; a
    start-up task that failed is reported in `startup` but does not hold readiness back."""
    tasks = dict(services.startup.tasks)
    running = sorted(name for name, state in tasks.items() if state == "running")
    if running:
        raise ApiError(
            503, "starting", f"still starting: {', '.join(running)}", details=tasks, headers={"Retry-After": "1"}
        )
    stats = services.memory.stats()  # BackendError -> 503 with the envelope
    shown = ("kind", "schema_version", "spaces", "records", "pending_outbox_jobs", "erasure_pending")
    store = {k: stats[k] for k in shown if k in stats}
    return ReadyOut(mode=services.mode, heuristic=services.mode == "heuristic", store=store, startup=tasks)


@router.get(
    "/metrics",
    summary="Prometheus metrics (text format)",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}}, 401: {"model": ErrorOut, "description": "Wrong metrics token."}},
)
def metrics(
    services: ServicesDep,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_metrics_bearer)],
) -> PlainTextResponse:
    """Open unless the operator set a metrics token (`FORETHOUGHT_SERVER_METRICS_TOKEN`); it holds
    no content, no ids and no workspace names — route templates, counts and timings only."""
    token = services.settings.metrics_token
    if token is not None:
        given = bearer.credentials if bearer is not None else ""
        if not hmac.compare_digest(given.encode(), token.get_secret_value().encode()):
            raise ApiError(401, "unauthorized", "the metrics token is required", headers={"WWW-Authenticate": "Bearer"})
    counts = services.metrics.memory_counts(lambda: services.memory.stats().get("records_by_status", {}))
    return PlainTextResponse(services.metrics.render(counts), media_type="text/plain; version=0.0.4")
