"""`forethought doctor`: which store, embedder and model are active, and whether each works."""

from __future__ import annotations

import platform
from pathlib import Path
from typing import Any

from forethought import __version__
from forethought.cli.context import Context, Output
from forethought.errors import ForethoughtError
from forethought.llm.health import health_check
from forethought.plugins import registry
from forethought.settings import RecallSettings
from forethought.targets import backend_for, display_target, is_postgres_url

__all__ = ["doctor"]


def _store(ctx: Context) -> dict[str, Any]:
    target = ctx.settings.db
    info: dict[str, Any] = {"kind": backend_for(target), "path": display_target(target)}
    if not is_postgres_url(target) and not Path(target).exists():
        info.update(ok=True, detail="no database yet; the first write creates it")
        return info
    try:
        info.update(ctx.memory().store.stats())
        info.update(ok=True, detail="readable")
    except ForethoughtError as exc:
        info.update(ok=False, detail=str(exc))
    return info


def _embedder(ctx: Context) -> dict[str, Any]:
    info: dict[str, Any] = {"name": ctx.settings.embedder}
    try:
        embedder = registry().embedder(ctx.settings.embedder)()
        vector = embedder.embed_one("forethought doctor")
        info.update(ok=True, model=embedder.name, dim=int(vector.shape[0]), detail="loaded, files verified")
    except ForethoughtError as exc:
        info.update(ok=False, detail=str(exc))
    return info


def _model(ctx: Context) -> dict[str, Any]:
    llm = ctx.settings.llm
    if llm.provider == "none":
        return {
            "provider": "none",
            "mode": "heuristic",
            "ok": True,
            "detail": "no API key or model server configured: every stage runs on the heuristic model",
        }
    model = ctx.model()
    assert model is not None
    health = health_check(model)
    return {
        "provider": llm.provider,
        "model": llm.resolved_model,
        "mode": "llm",
        "ok": health.reachable,
        "detail": health.detail,
    }


def _engine_line(recall: RecallSettings) -> str:
    if recall.engine != "hindsight":
        return recall.engine
    return f"{recall.engine} at {recall.hindsight_url}, bank {recall.hindsight_bank}"


def doctor(ctx: Context) -> Output:
    store, embedder, model = _store(ctx), _embedder(ctx), _model(ctx)
    apps = registry().names("app")
    report: dict[str, Any] = {
        "version": __version__,
        "python": platform.python_version(),
        "config_file": ctx.settings.config_file,
        "workspace": ctx.settings.workspace,
        "store": store,
        "embedder": embedder,
        "model": model,
        "engine": ctx.settings.recall.model_dump(),
        "apps": apps,
    }
    ok = bool(store["ok"] and embedder["ok"] and model["ok"])
    mark = {True: "ok  ", False: "FAIL"}
    schema = f" (schema v{store['schema_version']}, {store['records']} records)" if "schema_version" in store else ""
    lines = [
        f"forethought {__version__} (python {report['python']}), config: {ctx.settings.config_file or 'none'}",
        f"{mark[store['ok']]} store     {store['kind']} {store.get('sqlite', '')} at {store['path']}: "
        f"{store['detail']}{schema}",
        f"{mark[embedder['ok']]} embedder  {embedder['name']}: {embedder['detail']}",
        f"{mark[model['ok']]} model     {model['provider']}"
        + (f" {model['model']}" if "model" in model else "")
        + f" ({model['mode']}): {model['detail']}",
        f"     engine    {_engine_line(ctx.settings.recall)}",
        f"     apps      {', '.join(apps)}",
    ]
    return Output(report, "\n".join(lines), code=0 if ok else 5)
