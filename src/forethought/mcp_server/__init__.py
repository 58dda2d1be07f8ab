"""The MCP server: Forethought's memory tools for coding agents, over stdio and streamable HTTP.

Named `mcp_server` so it never shadows the official SDK's `mcp` package. Tools (see docs/mcp.md):
forethought_brief, forethought_check, forethought_submit_session, forethought_ask,
forethought_rulebook, forethought_recall — each a thin call into the `Forethought` façade.
"""

from forethought.mcp_server.handlers import Caller, Defaults
from forethought.mcp_server.http import build_http_app, run_http
from forethought.mcp_server.server import build_server, local_caller, run_stdio
from forethought.mcp_server.tools import TOOLS, ToolSpec

__all__ = [
    "TOOLS",
    "Caller",
    "Defaults",
    "ToolSpec",
    "build_http_app",
    "build_server",
    "local_caller",
    "run_http",
    "run_stdio",
]
