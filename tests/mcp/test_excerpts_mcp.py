"""Past-session excerpts over MCP: the brief tool returns them."""

from __future__ import annotations

from mcp import Client

from forethought import Forethought
from forethought.mcp_server import Caller, build_server
from tests.mcp.conftest import run
from tests.pipeline.test_excerpts import CHAT, TASK


def test_mcp_brief_returns_excerpts(memory: Forethought) -> None:
    scope = memory.scope("project", "ferry", workspace="w1")
    memory.submit_session(scope, CHAT, title="manifest chat", fmt="text")

    async def brief() -> dict[str, object]:
        server = build_server(memory, lambda ctx: Caller(workspace="w1"))
        async with Client(server) as client:
            result = await client.call_tool("forethought_brief", {"task": TASK, "project": "ferry"})
            assert not result.is_error
            return dict(result.structured_content or {})

    data = run(brief)
    excerpts = data["excerpts"]
    assert isinstance(excerpts, list) and excerpts and "UTC" in excerpts[0]["quote"]
