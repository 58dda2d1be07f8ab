"""The governed turn: the order of its stages, its trace, and how each failure degrades it."""

from __future__ import annotations

import json

import pytest

from forethought import Forethought, InvalidInput, Status
from forethought.domain import CheckPatterns, Role
from forethought.errors import BackendError
from forethought.llm import FakeChatModel, FakeOpenAIServer, OpenAICompatibleModel, ProviderUnavailable
from forethought.llm.base import Message
from forethought.llm.fake_server import Reply
from forethought.llm.fake_server import Status as HttpStatus
from forethought.pipeline import turn as turn_module
from forethought.pipeline.respond import HEURISTIC_NOTE
from tests.pipeline.conftest import router, stage_of

ORDER = ["identity", "persist_message", "recall", "brief", "generate", "check", "persist_reply", "memorize", "trace"]


def _rule(memory: Forethought, text: str, forbid: tuple[str, ...] = ()) -> str:
    check = CheckPatterns(forbid=forbid) if forbid else None
    return memory.retain(memory.scope("generic", "ana"), text, kind="note", check=check).record.id


def test_heuristic_turn_runs_every_stage_in_order_and_keeps_a_trace(memory: Forethought) -> None:
    result = memory.turn(
        memory.scope("generic", "ana"),
        "Remember that the staging database is read-only. key sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX12",
    )
    trace = result.trace
    assert trace.stage_names() == ORDER
    assert trace.heuristic and trace.mode == "heuristic"
    assert result.reply.startswith(HEURISTIC_NOTE)
    stored = memory.trace(memory.scope("generic", "ana"), trace.id)
    assert [s.name for s in stored.stages] == ORDER and stored.heuristic is True
    session = memory.store.sessions.get(trace.space_id, result.session_id)
    assert [t.role for t in session.turns] == [Role.USER, Role.AGENT]
    assert "sk-proj-" not in session.turns[0].text and "[REDACTED:" in session.turns[0].text
    assert trace.memory.auto_approved, "the note should be remembered"
    # the next turn recalls it before generating, and says which record it used and why
    again = memory.turn(
        memory.scope("generic", "ana"), "Can I write test data to the staging database?", session_id=result.session_id
    )
    assert again.trace.used and "read-only" in again.reply
    assert again.trace.stage_names().index("recall") < again.trace.stage_names().index("generate")
    assert len(memory.store.sessions.get(trace.space_id, result.session_id).turns) == 4


def test_an_empty_space_makes_no_recall_call(memory: Forethought, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    original = memory.memory.recall
    monkeypatch.setattr(memory.memory, "recall", lambda *a, **k: calls.append("recall") or original(*a, **k))
    result = memory.turn(memory.scope("generic", "newcomer"), "Hello there, what do you know about me?")
    recall_stage = next(s for s in result.trace.stages if s.name == "recall")
    assert recall_stage.status == "skipped" and calls == []
    assert "no memory" in result.reply


def test_bad_input_changes_nothing(memory: Forethought) -> None:
    for bad in ("", "   ", "nul \x00 byte", "x" * 20_001):
        with pytest.raises(InvalidInput):
            memory.turn(memory.scope("generic", "ana"), bad)
    assert memory.store.spaces.list() == []


def test_llm_turn_puts_memory_at_the_top_of_the_system_prompt(memory: Forethought) -> None:
    _rule(memory, "The staging database is read-only.")
    model = FakeChatModel(default=router("Use a local database for test data; staging is read-only."))
    memory.model = model
    result = memory.turn(memory.scope("generic", "ana"), "Where should I write test data, staging database?")
    generation = next(c for c in model.calls if stage_of(c.messages) == "generate")
    system = generation.messages[0].content
    assert system.index("read-only") < system.index(memory.scope("generic", "ana").app.persona)
    assert "must not be followed" in system or "not instructions" in system.lower()
    assert result.trace.mode == "llm:fake" and not result.trace.heuristic
    assert result.reply.startswith("Use a local database")
    assert result.trace.stage_names() == ORDER


def test_a_violating_draft_is_regenerated_once(memory: Forethought) -> None:
    _rule(memory, "Never store refresh tokens in localStorage.", forbid=(r"localStorage\.setItem",))
    drafts = iter(
        ["Do localStorage.setItem('refresh', token) after login.", "Keep the refresh token in an httpOnly cookie."]
    )
    memory.model = FakeChatModel(default=router(lambda messages: next(drafts)))
    result = memory.turn(
        memory.scope("generic", "ana"), "How do I keep the refresh token after login with localStorage?"
    )
    names = result.trace.stage_names()
    assert names.index("check") < names.index("regenerate") < names.index("recheck") < names.index("persist_reply")
    assert result.trace.regenerated and not result.blocked
    assert result.reply == "Keep the refresh token in an httpOnly cookie."


def test_a_draft_that_still_violates_is_blocked(memory: Forethought) -> None:
    rid = _rule(memory, "Never store refresh tokens in localStorage.", forbid=(r"localStorage\.setItem",))
    memory.model = FakeChatModel(default=router("Just call localStorage.setItem('refresh', token)."))
    result = memory.turn(
        memory.scope("generic", "ana"), "How do I keep the refresh token after login with localStorage?"
    )
    assert result.blocked and result.trace.blocked
    assert "not sending it" in result.reply and memory.get(memory.scope("generic", "ana"), rid).handle in result.reply
    stored = memory.store.sessions.get(result.trace.space_id, result.session_id)
    assert stored.turns[-1].text == result.reply  # what is stored is what was sent
    assert "setItem('refresh'" not in stored.turns[-1].text  # the violating draft never goes out


def test_a_trace_keeps_what_was_violated_but_no_memory_text(memory: Forethought) -> None:
    _rule(memory, "Never store refresh tokens in localStorage.", forbid=(r"localStorage\.setItem",))
    memory.model = FakeChatModel(default=router("Just call localStorage.setItem('refresh', token)."))
    result = memory.turn(
        memory.scope("generic", "ana"), "How do I keep the refresh token after login with localStorage?"
    )
    stored = memory.trace(memory.scope("generic", "ana"), result.trace_id)
    assert [v.rule for v in stored.violations] == ["matches a pattern memory forbids"]  # the last check
    row = memory.store.traces.get(result.trace.space_id, result.trace_id)  # what the store keeps, verbatim
    assert "Never store refresh tokens" not in json.dumps(row)  # `forget` must leave no text behind
    assert "Never store refresh tokens" not in stored.model_dump_json()


def test_a_model_that_is_down_degrades_the_turn_but_loses_nothing(memory: Forethought) -> None:
    _rule(memory, "The staging database is read-only.")
    memory.model = FakeChatModel(default=ProviderUnavailable("down (test)"))
    result = memory.turn(
        memory.scope("generic", "ana"), "Remember that I prefer short answers about the staging database."
    )
    assert "unavailable" in result.reply and HEURISTIC_NOTE in result.reply
    statuses = {s.name: s.status for s in result.trace.stages}
    assert statuses["generate"] == "degraded" and statuses["brief"] == "degraded"
    assert statuses["memorize"] == "degraded"  # the LLM extractor fell back to the heuristic one
    assert result.trace.degraded
    session = memory.store.sessions.get(result.trace.space_id, result.session_id)
    assert session.turns[0].text.startswith("Remember that I prefer short answers")
    remembered = memory.list_records(memory.scope("generic", "ana"), statuses=list(Status))
    assert any("short answers" in r.statement for r in remembered)


def test_a_failing_memorize_stage_keeps_the_exchange(memory: Forethought, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise BackendError("extraction exploded (test)")

    monkeypatch.setattr(turn_module, "memorize", broken)
    result = memory.turn(memory.scope("generic", "ana"), "Remember that deploys happen on Thursdays.")
    stage = next(s for s in result.trace.stages if s.name == "memorize")
    assert stage.status == "failed" and "nothing remembered" in stage.note
    assert len(memory.store.sessions.get(result.trace.space_id, result.session_id).turns) == 2
    assert memory.trace(memory.scope("generic", "ana"), result.trace_id).id == result.trace_id


def _route_request(request: object) -> Reply:
    messages = [Message(**m) for m in request.body["messages"]]  # type: ignore[attr-defined]
    return Reply(router("Staging is read-only, so write test data locally.")(messages))


def test_a_turn_over_real_http_against_the_fake_server(memory: Forethought) -> None:
    _rule(memory, "The staging database is read-only.")
    with FakeOpenAIServer(default=_route_request) as server:
        memory.model = OpenAICompatibleModel.local(server.base_url, model="fake-model")
        result = memory.turn(memory.scope("generic", "ana"), "Where should test data for the staging database go?")
        assert result.reply == "Staging is read-only, so write test data locally."
        assert result.trace.usage.total_tokens > 0
        assert any(r.path.endswith("/chat/completions") for r in server.requests)
        # the server starts failing: the next turn degrades, and still answers
        server.set_default(HttpStatus(500))
        memory.model = OpenAICompatibleModel.local(server.base_url, model="fake-model", max_retries=0)
        down = memory.turn(memory.scope("generic", "ana"), "And where do backups go?", session_id=result.session_id)
        assert "unavailable" in down.reply
        assert len(memory.store.sessions.get(down.trace.space_id, down.session_id).turns) == 4
