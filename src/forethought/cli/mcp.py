"""`forethought mcp`: serve the memory tools to coding agents over MCP.

    forethought mcp [--transport stdio] [--space PROJECT] [--app project]
    forethought mcp --transport http [--host 127.0.0.1] [--port 8766] [--space PROJECT]

Who the caller is, per transport:
- stdio: the server is a child process of the user running the agent, as trusted as that user. Its
  workspace is the one of the API key in FORETHOUGHT_API_KEY when set (an invalid key stops the
  server: it never falls back), else the local workspace (FORETHOUGHT_WORKSPACE, default "default"),
  the same one the CLI uses, so `forethought inbox` sees what the agent submitted.
- http: every request needs `Authorization: Bearer <key>` (`forethought keys create`); the key's
  workspace is used for that request. Loopback by default.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping

from forethought.cli.serve import base_url, port_arg
from forethought.domain.limits import check_name
from forethought.facade import Forethought
from forethought.plugins import model_from_settings, registry
from forethought.settings import Settings

__all__ = ["register", "serve_mcp"]

DEFAULT_PORT = 8766


def register(add: Callable[..., argparse.ArgumentParser]) -> None:
    p = add("mcp", "serve the memory tools to coding agents over MCP (stdio or streamable HTTP)", space=False)
    p.set_defaults(app="project")  # coding agents: the project app unless --app says otherwise
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    p.add_argument("--host", default="127.0.0.1", help="http: the address to bind (default: loopback)")
    p.add_argument("--port", type=port_arg, default=DEFAULT_PORT, help=f"http: the port (default: {DEFAULT_PORT})")
    p.add_argument("--space", metavar="PROJECT", help="the project a tool call uses when it names none")


def serve_mcp(args: argparse.Namespace, settings: Settings, environ: Mapping[str, str] = os.environ) -> int:
    # The MCP SDK loads only for `forethought mcp`.
    from forethought.mcp_server import Defaults, local_caller, run_http, run_stdio
    from forethought.mcp_server.http import LOOPBACK, MCP_PATH

    defaults = Defaults(
        app=registry().app(args.app).name,
        project=None if args.space is None else check_name(args.space, field="--space"),
    )
    model = model_from_settings(settings.llm)
    with Forethought.open(settings.db, embedder=settings.embedder, actor="mcp", model=model) as memory:
        if args.transport == "stdio":
            api_key = environ.get("FORETHOUGHT_API_KEY", "").strip() or None
            caller = local_caller(memory, api_key=api_key, workspace=settings.workspace)
            run_stdio(memory, caller, defaults=defaults)
            return 0
        note = "" if args.host in LOOPBACK else " — reachable beyond this machine"
        mode = "heuristic mode (no LLM configured)" if model is None else f"model {model.name}"
        url = base_url(args.host, args.port) + MCP_PATH
        print(f"forethought mcp: {url}, API key required{note}; {mode}", file=sys.stderr)
        run_http(memory, host=args.host, port=args.port, defaults=defaults)
    return 0
