"""The MCP server over stdio, spawned as `forethought mcp --transport stdio` by the official client."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.mcp.conftest import CANARY, FORETHOUGHT, TOOL_NAMES, run, seed, server_env, stdio_client, text
from tests.mcp.scenarios import every_tool

MAIN_ARGUMENT = {
    "forethought_brief": "task",
    "forethought_check": "content",
    "forethought_submit_session": "transcript",
    "forethought_ask": "question",
    "forethought_recall": "query",
}


def test_the_tools_are_listed_with_schemas_and_read_only_annotations(tmp_path: Path) -> None:
    seeded = seed(tmp_path / "memory.db")

    async def scenario() -> None:
        async with stdio_client(seeded.db) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == TOOL_NAMES
            for name, tool in tools.items():
                schema = tool.input_schema
                assert schema["type"] == "object" and schema["additionalProperties"] is False, name
                assert "project" in schema["required"], name  # no default project was given
                assert schema["properties"]["app"]["default"] == "project"
                assert "project" in schema["properties"]["app"]["enum"]
                if name in MAIN_ARGUMENT:
                    argument = MAIN_ARGUMENT[name]
                    assert argument in schema["required"] and schema["properties"][argument]["maxLength"] > 0
                assert tool.output_schema is not None and tool.output_schema["type"] == "object", name
                assert tool.description and tool.annotations is not None
                assert tool.annotations.read_only_hint is (name != "forethought_submit_session"), name
                assert tool.annotations.open_world_hint is False
            submit = tools["forethought_submit_session"].annotations
            assert submit is not None and submit.destructive_hint is False
            assert tools["forethought_recall"].input_schema["properties"]["k"]["maximum"] == 50
            submit_args = tools["forethought_submit_session"].input_schema["properties"]
            assert submit_args["human"]["anyOf"][0]["maxLength"] == 80
            assert "time zone" in submit_args["occurred_at"]["description"]
            assert set(tools["forethought_submit_session"].input_schema["properties"]["format"]["enum"]) == {
                "auto",
                "text",
                "json",
                "jsonl",
                "markdown",
                "cursor",
            }

    run(scenario)


def test_every_tool_answers_through_the_official_client(tmp_path: Path) -> None:
    seeded = seed(tmp_path / "memory.db")

    async def scenario() -> None:
        async with stdio_client(seeded.db, FORETHOUGHT_WORKSPACE="alpha") as client:
            await every_tool(client, seeded)

    run(scenario)


BAD_CALLS: list[tuple[str, dict[str, object], str]] = [
    ("forethought_brief", {"project": "apexcart"}, "task: Field required"),
    ("forethought_brief", {"task": 5, "project": "apexcart"}, "task: Input should be a valid string"),
    ("forethought_brief", {"task": "x" * 2001, "project": "apexcart"}, "at most 2000 characters"),
    ("forethought_brief", {"task": "x", "project": "apexcart", "limit": "5"}, "limit: Input should be a valid integer"),
    ("forethought_brief", {"task": "x", "project": "apexcart", "limit": 0}, "limit: Input should be greater"),
    ("forethought_brief", {"task": "x", "project": "apexcart", "files": ["a"] * 51}, "files: List should have at most"),
    ("forethought_brief", {"task": "x", "project": "apexcart", "space_id": "abc"}, "space_id: Extra inputs"),
    ("forethought_brief", {"task": "x", "project": "apexcart", "workspace": "alpha"}, "workspace: Extra inputs"),
    ("forethought_brief", {"task": "x"}, "project: required"),
    ("forethought_brief", {"task": "x", "project": ""}, "project: String should have at least 1 character"),
    ("forethought_brief", {"task": "x", "project": "a\x00b"}, "project: contains a NUL byte"),
    ("forethought_brief", {"task": "x", "project": "apexcart", "app": "nope"}, "unknown app 'nope'"),
    ("forethought_brief", {"task": "a\x00b", "project": "apexcart"}, "NUL byte"),
    ("forethought_check", {"content": "", "project": "apexcart"}, "content: String should have at least"),
    ("forethought_check", {"content": ["x"], "project": "apexcart"}, "content: Input should be a valid string"),
    ("forethought_submit_session", {"transcript": "User: hi", "project": "apexcart"}, "title: Field required"),
    ("forethought_submit_session", {"transcript": "{oops", "title": "t", "project": "apexcart"}, "transcript"),
    ("forethought_submit_session", {"transcript": "x", "title": "t", "project": "p", "format": "xml"}, "format"),
    (
        "forethought_submit_session",
        {"transcript": "User: hi", "title": "t", "project": "p", "occurred_at": "2026-02-09T14:30"},
        "occurred_at: '2026-02-09T14:30' has no time zone",
    ),
    ("forethought_ask", {"question": "   ", "project": "apexcart"}, "is empty"),
    ("forethought_recall", {"query": "x", "project": "apexcart", "k": 51}, "k: Input should be less than or equal"),
    ("forethought_recall", {"query": "x", "project": "apexcart", "k": True}, "k: Input should be a valid integer"),
    ("forethought_rulebook", {"project": "apexcart", "extra": 1}, "extra: Extra inputs"),
    ("forethought_nope", {}, "unknown tool 'forethought_nope'"),
]


def test_bad_arguments_are_one_line_tool_errors_and_the_server_keeps_serving(tmp_path: Path) -> None:
    seeded = seed(tmp_path / "memory.db")

    async def scenario() -> None:
        async with stdio_client(seeded.db, FORETHOUGHT_WORKSPACE="alpha") as client:
            for name, arguments, expected in BAD_CALLS:
                result = await client.call_tool(name, arguments)
                message = text(result)
                assert result.is_error, (name, arguments)
                assert message.startswith("invalid input: ") and expected in message, (name, message)
                assert "\n" not in message and "Traceback" not in message
                assert result.structured_content is None
            after = await client.call_tool("forethought_rulebook", {"project": "apexcart"})
            assert not after.is_error and seeded.moment_handle in text(after)

    run(scenario)


def test_the_workspace_comes_from_the_api_key_in_the_environment(tmp_path: Path) -> None:
    seeded = seed(tmp_path / "memory.db")

    async def scenario() -> None:
        async with stdio_client(seeded.db, FORETHOUGHT_API_KEY=seeded.key_b, FORETHOUGHT_WORKSPACE="alpha") as client:
            book = await client.call_tool("forethought_rulebook", {"project": "apexcart"})
            assert "blue-green" in text(book) and "moment" not in text(book)
            recall = await client.call_tool(
                "forethought_recall", {"query": "billing vault Monday", "project": "apexcart"}
            )
            assert CANARY not in json.dumps(recall.structured_content)

    run(scenario)


def test_a_default_project_makes_the_argument_optional(tmp_path: Path) -> None:
    seeded = seed(tmp_path / "memory.db")

    async def scenario() -> None:
        async with stdio_client(seeded.db, "--space", "apexcart", FORETHOUGHT_WORKSPACE="alpha") as client:
            tool = next(t for t in (await client.list_tools()).tools if t.name == "forethought_rulebook")
            assert "project" not in tool.input_schema.get("required", [])
            assert tool.input_schema["properties"]["project"]["default"] == "apexcart"
            book = await client.call_tool("forethought_rulebook", {})
            assert not book.is_error and seeded.moment_handle in text(book)

    run(scenario)


def test_an_invalid_api_key_stops_the_server_instead_of_falling_back(tmp_path: Path) -> None:
    seeded = seed(tmp_path / "memory.db")
    done = subprocess.run(
        [FORETHOUGHT, "mcp", "--transport", "stdio"],
        env=server_env(seeded.db, FORETHOUGHT_API_KEY="ft_not_a_real_key"),
        cwd=tmp_path,
        input=b"",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().strip() == (
        "error: FORETHOUGHT_API_KEY is not an active API key (unknown, malformed or revoked)"
    )
