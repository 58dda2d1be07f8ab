"""`forethought serve`: the HTTP API on uvicorn, over the same façade as every other command.

The port opens at once: the embedding model loads in the background (a request that needs it
meanwhile waits for it), and so does demo seeding; `/health` answers from the first moment and
`/ready` once that work is done.
"""

from __future__ import annotations

import argparse
import atexit
import os
import signal
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from forethought.cli.context import Context, Output
from forethought.errors import InvalidInput
from forethought.targets import display_target, is_postgres_url

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI

    from forethought.server import Services

__all__ = ["base_url", "port_arg", "register", "serve", "worker_app"]

WORKER_HEALTHCHECK_S = 60  # seconds a worker may take to answer its supervisor's ping


def port_arg(value: str) -> int:
    """An argparse type for a TCP port (also used by `forethought mcp`)."""
    if not (value.isascii() and value.isdigit() and len(value) <= 5) or not 1 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(f"not a TCP port: {value!r}")
    return int(value)


def _workers_arg(value: str) -> int:
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 64:
        raise argparse.ArgumentTypeError(f"not a number of workers from 1 to 64: {value!r}")
    return int(value)


def base_url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _graceful_server(config: uvicorn.Config) -> uvicorn.Server:
    """uvicorn's server, except that SIGINT/SIGTERM end `run()` after a graceful shutdown instead
    of being raised again: the command then closes the store and exits 0 ("stopped")."""
    import uvicorn

    class GracefulServer(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True  # a second Ctrl-C stops waiting for open connections
            else:
                self.should_exit = True

    return GracefulServer(config)


def serve(ctx: Context) -> Output:
    import uvicorn  # the server's dependencies load only for this command

    from forethought.server import ServerSettings, Services, create_app
    from forethought.server.accesslog import install as install_access_scrubber
    from forethought.server.demo import demo_key, key_file, seed_demo
    from forethought.server.headers import hosts_for_bind

    a = ctx.args
    server_settings = ServerSettings.load(os.environ)
    hosts = hosts_for_bind(a.host, [*server_settings.allowed_hosts, *a.allowed_host])
    server_settings = server_settings.model_copy(update={"allowed_hosts": hosts})
    memory = ctx.memory(create=True)  # migrated here, once, before any worker opens it
    memory.model = ctx.model()
    services = Services(memory, server_settings)
    url = base_url(a.host, a.port)
    if a.workers > 1:
        return _serve_workers(ctx, services, hosts, url)
    print(f"Forethought on {url}", flush=True)
    print(f"  web workspace: {url}/  (log in with an API key: `forethought keys create --workspace W`)", flush=True)
    print(f"  HTTP API: {url}/v1  (OpenAPI docs: {url}/docs)", flush=True)
    print(
        f"  database {display_target(ctx.settings.db)}, embedder {ctx.settings.embedder}, model: {services.mode}",
        flush=True,
    )
    load = getattr(memory.embedder, "load", None)
    if callable(load):
        services.startup.run("embedder", load)
    if a.demo:
        key = demo_key(memory, ctx.settings.db)
        services.startup.run("demo", lambda: seed_demo(memory))
        print(
            f"  demo workspace admin key: {key}  (paste it at {url}/ ; kept in {key_file(ctx.settings.db)}, mode 0600)",
            flush=True,
        )
        print(f"  try: curl -H 'Authorization: Bearer {key}' {url}/v1/apps/career/subjects", flush=True)
    config = uvicorn.Config(
        create_app(services), host=a.host, port=a.port, log_level=a.log_level, access_log=a.log_level == "info"
    )
    install_access_scrubber()  # after uvicorn configured its loggers: query values never reach the log
    server = _graceful_server(config)
    server.run()
    services.startup.wait(timeout_s=10)  # let seeding finish its transaction before the store closes
    if not server.started:
        raise InvalidInput(f"could not listen on {a.host}:{a.port} (see the message above)")
    return Output({"stopped": True}, "stopped")


def _serve_workers(ctx: Context, services: Services, hosts: tuple[str, ...], url: str) -> Output:
    """`--workers N`: N server processes on one port, each opening the database itself (`worker_app`);
    this process seeds the demo first and then only supervises. Browser sessions and API keys are the
    database's, so any worker answers any request; so are the rate limits' buckets and import jobs."""
    import uvicorn

    from forethought.server.demo import demo_key, key_file, seed_demo

    a = ctx.args
    memory = services.memory
    print(f"Forethought on {url}, {a.workers} worker processes", flush=True)
    print(f"  web workspace: {url}/  HTTP API: {url}/v1  (OpenAPI docs: {url}/docs)", flush=True)
    print(
        f"  database {display_target(ctx.settings.db)}, embedder {ctx.settings.embedder}, model: {services.mode}",
        flush=True,
    )
    if a.demo:
        key = demo_key(memory, ctx.settings.db)
        seed_demo(memory)
        print(f"  demo workspace admin key: {key}  (kept in {key_file(ctx.settings.db)}, mode 0600)", flush=True)
    os.environ.update(  # what every worker reads (the CLI's options win over file and environment)
        {
            "FORETHOUGHT_DB": ctx.settings.db,
            "FORETHOUGHT_EMBEDDER": ctx.settings.embedder,
            "FORETHOUGHT_WORKSPACE": ctx.settings.workspace,
            "FORETHOUGHT_SERVER_ALLOWED_HOSTS": ",".join(hosts),
            "FORETHOUGHT_SERVER_WORKERS": str(a.workers),
        }
    )
    uvicorn.run(
        "forethought.cli.serve:worker_app",
        factory=True,
        host=a.host,
        port=a.port,
        workers=a.workers,
        # The supervisor restarts a worker that misses a health ping: loading the embedding model
        # on a busy machine takes longer than uvicorn's 5 s, and a restart loop helps nobody.
        timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
        log_level=a.log_level,
        access_log=a.log_level == "info",
    )
    return Output({"stopped": True}, "stopped")


def worker_app() -> FastAPI:
    """One worker of `serve --workers N`: the application over the database its environment names."""
    from forethought.facade import Forethought
    from forethought.plugins import model_from_settings
    from forethought.server import ServerSettings, Services, create_app
    from forethought.server.accesslog import install as install_access_scrubber
    from forethought.settings import Settings

    settings = Settings.load(os.environ)
    target = settings.db if is_postgres_url(settings.db) else Path(settings.db)
    memory = Forethought.open(target, embedder=settings.embedder, actor="api", model=model_from_settings(settings.llm))
    atexit.register(memory.close)
    services = Services(memory, ServerSettings.load(os.environ))
    load = getattr(memory.embedder, "load", None)
    if callable(load):
        services.startup.run("embedder", load)
    app = create_app(services)
    install_access_scrubber()  # uvicorn configured this worker's loggers before calling the factory
    return app


def register(add: Callable[..., argparse.ArgumentParser]) -> None:
    p = add("serve", "run the HTTP API (see docs/api.md)", space=False)
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=port_arg, default=8765, help="TCP port (default: 8765)")
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name requests may use besides the bound address (repeatable; any other Host header is "
        "refused with 400; bound to 0.0.0.0 without this option, any host is accepted)",
    )
    p.add_argument(
        "--demo",
        action="store_true",
        help="seed demo memories for every app into the 'demo' workspace and print a demo API key",
    )
    p.add_argument("--log-level", choices=["warning", "info", "debug"], default="warning", help="server log level")
    p.add_argument(
        "--workers",
        type=_workers_arg,
        default=1,
        metavar="N",
        help="server processes on the port (default 1); several share the database's sessions and keys,"
        " best on PostgreSQL (--db postgresql://...)",
    )
