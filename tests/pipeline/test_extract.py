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


def _long_session(turns: int = 40, words: int = 120) -> Session:
    text = " ".join(["filler"] * words)
    return Session(
        id="long", space_id="space", title="t", created_at=utcnow(),
        turns=tuple(Turn(index=i, role=Role.USER if i % 2 == 0 else Role.AGENT, text=f"turn {i}: {text}")
                    for i in range(turns)),
    )  # fmt: skip


def test_a_long_session_is_read_whole_in_overlapping_windows() -> None:
    from forethought.prompts.extraction import WINDOW_CHARS, windows

    session = _long_session()
    parts = windows(session)
    assert len(parts) > 1 and all(sum(len(t.text) for t in p.turns) <= WINDOW_CHARS for p in parts)
    seen = sorted({t.index for p in parts for t in p.turns})
    assert seen == list(range(40))  # no turn is dropped, unlike truncating to the newest text
    assert all(parts[i].turns[-2:] == parts[i + 1].turns[:2] for i in range(len(parts) - 1))
    model = FakeChatModel(default=json.dumps({"candidates": []}))
    extract_candidates(session, registry().app("project"), model)
    assert len(model.calls) == len(parts)
    assert "[0] user: turn 0" in model.calls[0].messages[1].content
    assert "[39] agent: turn 39" in model.calls[-1].messages[1].content


def test_a_failed_window_degrades_only_itself() -> None:
    from forethought.llm.base import ProviderTimeout
    from forethought.prompts.extraction import windows

    session = _long_session()
    n = len(windows(session))
    model = FakeChatModel([ProviderTimeout("slow"), *[json.dumps({"candidates": []})] * (n - 1)])
    result = extract_candidates(session, registry().app("project"), model)
    assert result.mode == "llm:fake" and result.degraded is not None
    assert "failed" in result.degraded and "for turns 0-" in result.degraded


def test_items_the_model_marks_planned_or_proposed_are_rejected_with_their_modality() -> None:
    app = registry().app("project")
    turns = (Turn(index=0, role=Role.USER, text="We'll move to NATS next quarter. We never log tokens."),)
    session = Session(id="s", space_id="space", title="t", created_at=utcnow(), turns=turns)
    answer = {"candidates": [
        {"kind": "decision", "statement": "Move to NATS.", "attributes": {"what": "move to NATS"},
         "quote": "We'll move to NATS next quarter.", "turn": 0, "modality": "planned"},
        {"kind": "constraint", "statement": "Never log tokens.", "attributes": {"rule": "never log tokens"},
         "quote": "We never log tokens.", "turn": 0, "modality": "decided"},
    ]}  # fmt: skip
    result = extract_candidates(session, app, FakeChatModel([json.dumps(answer)]))
    assert [(c.kind, c.modality.value) for c in result.candidates] == [("constraint", "decided")]
    assert [(r.rule, r.candidate.statement) for r in result.rejected] == [("modality", "Move to NATS.")]
    from forethought.prompts.extraction import MODALITIES, wire_schema

    item = wire_schema(app.kinds)["$defs"]["ExtractedItem"]
    assert item["properties"]["modality"]["enum"] == list(MODALITIES)


def test_attributes_that_do_not_fit_are_filled_by_the_apps_slot_filler() -> None:
    app = registry().app("project")
    turns = (Turn(index=0, role=Role.USER, text="We pin numpy to 1.26 everywhere; 2.x is not allowed."),)
    session = Session(id="s", space_id="space", title="t", created_at=utcnow(), turns=turns)
    answer = {"candidates": [
        {"kind": "dependency_policy", "statement": "Pin numpy to 1.26.", "attributes": {"library": "numpy"},
         "quote": "We pin numpy to 1.26 everywhere; 2.x is not allowed.", "turn": 0},
    ]}  # fmt: skip
    result = extract_candidates(session, app, FakeChatModel([json.dumps(answer)]))
    [candidate] = result.candidates
    assert candidate.attributes["package"] == "numpy" and candidate.attributes["rule"].startswith("We pin numpy")
    assert result.rejected == []
