"""Extraction: the LLM extractor over real HTTP, its validation, and its fallback."""

from __future__ import annotations

import json

from forethought.domain import Role, Session, Turn
from forethought.domain.times import utcnow
from forethought.llm import FakeChatModel, FakeOpenAIServer, InvalidOutput, OpenAICompatibleModel
from forethought.llm.fake_server import Status
from forethought.pipeline.extract import extract_candidates
from forethought.plugins import registry

SESSION = Session(
    id="s1",
    space_id="x",
    title="t",
    created_at=utcnow(),
    turns=(
        Turn(index=0, role=Role.USER, text="I applied to Contoso for the data intern role last week."),
        Turn(index=1, role=Role.AGENT, text="Good luck! You know Python well, right?"),
        Turn(index=2, role=Role.USER, text="Remember that I prefer remote work."),
    ),
)
ANSWER = {
    "candidates": [
        {
            "kind": "application",
            "statement": "Applied to Contoso for the data intern role.",
            "attributes": {"company": "Contoso", "role": "data intern", "status": "applied"},
            "quote": "I applied to Contoso for the data intern role",
            "turn": 0,
            "asserted_by": "user",
            "confidence": 0.9,
        },
        {
            "kind": "application",
            "statement": "Bad attributes.",
            "attributes": {"status": "dreaming"},
            "quote": "I applied to Contoso",
            "turn": 0,
            "asserted_by": "user",
        },
    ]
}


def test_llm_extraction_over_http_types_candidates_and_rejects_bad_attributes() -> None:
    app = registry().app("career")
    with FakeOpenAIServer() as server:
        server.reply(json.dumps(ANSWER))
        model = OpenAICompatibleModel.local(server.base_url, model="fake-model")
        result = extract_candidates(SESSION, app, model)
        body = server.requests[0].body
        assert body["response_format"] == {"type": "json_object"}
        assert "application" in body["messages"][0]["content"]  # the app's kinds are in the prompt
        assert "[1] agent: Good luck!" in body["messages"][1]["content"]
    assert result.mode == "llm:fake-model" and result.degraded is None
    assert [c.kind for c in result.candidates] == ["application"]
    good = result.candidates[0]
    assert good.attributes["company"] == "Contoso" and good.evidence[0].role is Role.USER
    assert good.extractor == "llm:fake-model" and result.usage.total_tokens > 0
    assert [r.rule for r in result.rejected] == ["attributes"]


def test_invalid_output_twice_degrades_to_the_heuristic_extractor() -> None:
    app = registry().app("career")
    model = FakeChatModel(["not json", "still not json"])
    result = extract_candidates(SESSION, app, model)
    assert result.mode == "heuristic" and result.degraded and InvalidOutput.code in result.degraded
    assert any(c.kind == "application" for c in result.candidates)
    assert all(c.asserted_by is Role.USER for c in result.candidates)  # the advisor's words are not facts


def test_a_server_error_degrades_too() -> None:
    app = registry().app("generic")
    with FakeOpenAIServer(default=Status(500)) as server:
        model = OpenAICompatibleModel.local(server.base_url, model="m", max_retries=0)
        result = extract_candidates(SESSION, app, model)
    assert result.mode == "heuristic" and "provider_unavailable" in (result.degraded or "")
    assert [c.kind for c in result.candidates] == ["note"]


def test_the_schema_sent_enumerates_the_apps_kinds_and_roles() -> None:
    """A constrained decoder can only answer with one of the app's kinds (a small model once
    answered "statement" and lost the whole answer)."""
    app = registry().app("project")
    with FakeOpenAIServer() as server:
        server.reply(json.dumps({"candidates": []}))
        model = OpenAICompatibleModel.local(server.base_url, model="fake-model", supports_json_schema=True)
        extract_candidates(SESSION, app, model)
        sent = server.requests[0].body["response_format"]
    assert sent["type"] == "json_schema"
    item = sent["json_schema"]["schema"]["$defs"]["ExtractedItem"]
    assert item["properties"]["kind"]["enum"] == sorted(app.kinds)
    assert item["properties"]["asserted_by"]["enum"] == ["user", "agent", "tool"]
    assert {"kind", "statement", "quote", "turn"} <= set(item["required"])


def test_one_malformed_item_costs_only_itself_and_is_reported() -> None:
    app = registry().app("career")
    answer = {"candidates": [ANSWER["candidates"][0], {"kind": "skill", "statement": "no quote or turn"}]}
    model = FakeChatModel([json.dumps(answer)])
    result = extract_candidates(SESSION, app, model)
    assert [c.kind for c in result.candidates] == ["application"]
    assert result.degraded is not None and result.degraded.startswith("1 of 2 proposed items left out: quote")
