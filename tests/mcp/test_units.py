"""The MCP front end's parts in-process: the one error mapping, failing closed without a caller,
the rulebook's grouping."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest
from mcp import Client

from forethought import Forethought, Status
from forethought.errors import BackendError, Conflict, InvalidInput, NotFound, StoreBusy
from forethought.mcp_server import Caller, build_server
from forethought.mcp_server.errors import error_message
from forethought.mcp_server.http import caller_from_request
from forethought.mcp_server.rulebook import build_rulebook
from tests.mcp.conftest import run, text


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (InvalidInput("query: is empty"), "invalid input: query: is empty"),
        (NotFound("no record x\nsecond line"), "not found: no record x"),
        (Conflict("external id reused"), "conflict: external id reused"),
        (StoreBusy("the store stayed locked"), "backend error: the store stayed locked"),
        (BackendError(""), "backend error: BackendError"),
    ],
)
def test_our_errors_become_one_line_messages(error: Exception, expected: str) -> None:
    assert error_message(error, tool="forethought_brief") == expected


def test_an_unexpected_error_is_logged_not_shown(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="forethought.mcp")
    message = error_message(KeyError("/home/me/secret/path"), tool="forethought_check")
    assert message == "internal error: forethought_check could not complete (the server's log has the details)"
    assert "secret" not in message and "KeyError" in caplog.text


def test_a_call_without_an_authenticated_caller_fails_closed(memory: Forethought) -> None:
    server = build_server(memory, caller_from_request)  # in-process: there is no HTTP request, so no key

    async def scenario() -> None:
        async with Client(server) as client:
            result = await client.call_tool("forethought_rulebook", {"project": "apexcart"})
            assert result.is_error and text(result).startswith("internal error: forethought_rulebook")

    run(scenario)


def test_the_space_comes_from_the_callers_workspace(memory: Forethought) -> None:
    memory.retain(memory.scope("project", "p", workspace="w1"), "W1 uses Postgres.", kind="decision")

    async def rulebook(workspace: str) -> str:
        server = build_server(memory, lambda ctx: Caller(workspace=workspace))
        async with Client(server) as client:
            return text(await client.call_tool("forethought_rulebook", {"project": "p"}))

    assert "W1 uses Postgres." in run(lambda: rulebook("w1"))
    assert "No current rules" in run(lambda: rulebook("w2"))


def test_the_rulebook_groups_current_records_by_kind_then_area(memory: Forethought) -> None:
    key = memory.scope("project", "tillpoint", workspace="default")
    memory.retain(key, "Use Postgres for the ledger.", kind="decision", attributes={"area": "db"})
    memory.retain(key, "Squash merges only.", kind="convention", attributes={"area": "process"})
    memory.retain(key, "Keep PRs small.", kind="convention")
    memory.retain(key, "Deploy with blue-green.", kind="decision", attributes={"area": "deploy"})
    old = memory.retain(key, "Releases ship on Tuesday.", kind="deployment").record
    memory.supersede(key, old.id, "Releases ship on Thursday.")
    memory.retain(key, "A candidate, not a rule.", kind="decision", status=Status.CANDIDATE)
    book = build_rulebook(memory, key)
    headings = [line for line in book.markdown.splitlines() if line.startswith("#")]
    assert headings == [
        "# Rulebook: tillpoint (project)",
        "## Decision (2)",
        "### db",
        "### deploy",
        "## Convention (2)",
        "### process",
        "### general",
        "## Deployment (1)",
        "### general",
    ]
    assert "Thursday" in book.markdown and "Tuesday" not in book.markdown and "candidate" not in book.markdown
    assert all(f"`{r.handle}`" in book.markdown for r in book.rules) and book.truncated is False


def test_the_mcp_front_end_never_touches_a_store_backend() -> None:
    import forethought.mcp_server as package

    for path in Path(package.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not any(m.startswith("forethought.store") for m in modules), path.name
        assert "os.environ" not in path.read_text("utf-8"), path.name  # configuration lives at the edge
