"""The MCP front end's parts in-process: the one error mapping, failing closed without a caller,
the rulebook's grouping."""

from __future__ import annotations

import ast
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from forethought import Forethought, Role, Status
from forethought.errors import BackendError, Conflict, InvalidInput, NotFound, StoreBusy
from forethought.mcp_server import Caller, build_server
from forethought.mcp_server.errors import error_message
from forethought.mcp_server.http import caller_from_request
from forethought.projects.rulebook import build_rulebook, render
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


# Two named people: without `human` both are people; with it, only Rita's rules are hers to make.
NAMED = """Kwame: We always vendor the exporter's wheels.
Rita: We decided to pin numpy below 2 for the exporter.
Kwame: Noted, I will pin it.
Rita: Never run the exporter against the production bucket.
"""


def _submit(memory: Forethought, **extra: Any) -> Any:  # the tool's CallToolResult
    server = build_server(memory, lambda ctx: Caller(workspace="w1"))
    arguments = {"transcript": NAMED, "title": "chat", "project": "wharf", **extra}

    async def scenario() -> Any:
        async with Client(server) as client:
            return await client.call_tool("forethought_submit_session", arguments)

    return run(scenario)


def test_submit_session_takes_the_person_and_when_it_happened(memory: Forethought) -> None:
    result = _submit(memory, human=" Rita ", occurred_at="2026-02-09T15:30:00+01:00")
    assert not result.is_error, text(result)
    assert [p["statement"] for p in result.structured_content["pending"]] == [
        "We decided to pin numpy below 2 for the exporter."
    ]
    wharf = memory.scope("project", "wharf", workspace="w1")
    when = datetime(2026, 2, 9, 14, 30, tzinfo=UTC)
    (session,) = memory.list_sessions(wharf)
    assert session.created_at == when and session.id == result.structured_content["session"]
    pending = memory.inbox(wharf).pending
    assert pending and all(r.provenance.asserted_by is Role.USER and r.occurred_at == when for r in pending)


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"occurred_at": "2026-02-09T14:30"}, "invalid input: occurred_at: '2026-02-09T14:30' has no time zone"),
        ({"occurred_at": "2026-02-09"}, "invalid input: occurred_at: '2026-02-09' has no time zone"),
        ({"occurred_at": "soon"}, "invalid input: occurred_at: 'soon' is not an ISO 8601 timestamp"),
        ({"occurred_at": 1770647400}, "invalid input: occurred_at: Input should be a valid string"),
        ({"human": "   "}, "invalid input: human: String should have at least 1 character"),
        ({"human": "R" * 81}, "invalid input: human: String should have at most 80 characters"),
    ],
)
def test_submit_session_refuses_a_bad_person_or_time_and_stores_nothing(
    memory: Forethought, extra: dict[str, Any], expected: str
) -> None:
    result = _submit(memory, **extra)
    message = text(result)
    assert result.is_error and message.startswith(expected), message
    assert "\n" not in message and "Traceback" not in message
    assert memory.list_sessions(memory.scope("project", "wharf", workspace="w1")) == []


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
    markdown = render(book)
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings == [
        "# Rulebook: tillpoint",
        "## Decision (2)",
        "### db",
        "### deploy",
        "## Convention (2)",
        "### process",
        "### general",
        "## Deployment (1)",
        "### general",
    ]
    assert "Thursday" in markdown and "Tuesday" not in markdown and "candidate" not in markdown
    assert all(f"`{r.handle}`" in markdown for r in book.rules) and book.truncated is False


def test_the_mcp_front_end_never_touches_a_store_backend() -> None:
    import forethought.mcp_server as package

    for path in Path(package.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not any(m.startswith("forethought.store") for m in modules), path.name
        assert "os.environ" not in path.read_text("utf-8"), path.name  # configuration lives at the edge
