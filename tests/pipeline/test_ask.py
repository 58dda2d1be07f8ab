"""Ask: answers only from memory, with citations; superseded records as history."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from forethought import Forethought, Record
from forethought.apps.generic import APP
from forethought.llm import FakeChatModel, FakeOpenAIServer, InvalidOutput, OpenAICompatibleModel, ProviderUnavailable
from forethought.pipeline.ask import NO_MEMORY, ask

SPACE = "apexcart"
JUNE = "The database URL sets connection_limit=25 for the Prisma pool."
SEPTEMBER = "The database pool goes through PgBouncer with connection_limit=1."
REDIS = "Carts are not kept in Redis: a 24-hour TTL lost returning users' carts."


@pytest.fixture
def pool(memory: Forethought) -> tuple[Record, Record]:
    old = memory.retain(memory.scope("generic", SPACE), JUNE, kind="decision", occurred_at="2026-06-02").record
    new = memory.supersede(
        memory.scope("generic", SPACE), old.id, SEPTEMBER, occurred_at="2026-09-14", reason="load test"
    )
    memory.retain(memory.scope("generic", SPACE), REDIS, kind="decision", occurred_at="2026-03-01")
    return memory.get(memory.scope("generic", SPACE), old.id), new


def reply(answer: str, citations: list[str]) -> str:
    return json.dumps({"answer": answer, "citations": citations})


def test_an_empty_space_has_no_memory_and_recalls_nothing(memory: Forethought, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory.memory, "recall", lambda *a, **k: pytest.fail("recall called"))
    answer = ask(
        memory.memory, memory.scope(APP, "nobody"), "What did we decide about the pool?", model=FakeChatModel()
    )
    assert (answer.text, answer.citations, answer.mode) == (NO_MEMORY, [], "heuristic")


def test_nothing_relevant_is_said_plainly(memory: Forethought, pool: tuple[Record, Record]) -> None:
    answer = ask(memory.memory, memory.scope(APP, SPACE), "What is our holiday schedule for the office?")
    assert answer.text == "I have no memory about that." and answer.citations == [] and answer.records == []


def test_superseded_records_are_described_as_history(memory: Forethought, pool: tuple[Record, Record]) -> None:
    old, new = pool
    answer = ask(memory.memory, memory.scope(APP, SPACE), "What database pool settings did we use before?")
    assert answer.mode == "heuristic" and answer.degraded is None
    assert answer.citations == [new.handle, old.handle]
    assert [r.id for r in answer.records] == [new.id, old.id]
    text = answer.text
    assert text.startswith("From memory") and "no language model" in text
    current, history = text.split("Previously (superseded: history, no longer current):")
    assert SEPTEMBER in current and f"[{new.handle}]" in current and JUNE not in current
    assert (
        JUNE in history and "from 2026-06-02 until 2026-09-14" in history and f"replaced by [{new.handle}]" in history
    )


def test_the_llm_answer_keeps_only_citations_of_provided_records(
    memory: Forethought, pool: tuple[Record, Record]
) -> None:
    old, new = pool

    def answer(messages: Any) -> str:
        prompt = messages[-1].content
        assert f"[{old.handle}] (decision, HISTORY: from 2026-06-02 until 2026-09-14" in prompt
        assert f"[{new.handle}] (decision, since 2026-09-14)" in prompt and "<memory>" in prompt
        return reply(f"We use PgBouncer [{new.handle}]; before that connection_limit=25 [{old.handle}] [zzzzzzzz].",
                     [new.handle, "zzzzzzzz", old.handle.upper()])  # fmt: skip

    got = ask(memory.memory, memory.scope(APP, SPACE), "What pool settings do we use?", model=FakeChatModel([answer]))
    assert got.mode == "llm:fake" and got.degraded is None and got.usage.total_tokens > 0
    assert got.citations == [new.handle, old.handle] and "zzzzzzzz" not in got.text
    assert got.text == f"We use PgBouncer [{new.handle}]; before that connection_limit=25 [{old.handle}]."


def test_an_llm_answer_citing_nothing_it_was_given_is_replaced(
    memory: Forethought, pool: tuple[Record, Record]
) -> None:
    model = FakeChatModel([reply("Use 100 connections, trust me.", ["zzzzzzzz"])])
    got = ask(memory.memory, memory.scope(APP, SPACE), "What database pool settings do we use?", model=model)
    assert got.mode == "heuristic" and got.degraded is not None and "cited no record" in got.degraded
    assert SEPTEMBER in got.text and got.usage.total_tokens > 0


def test_the_llm_may_say_it_has_no_memory(memory: Forethought, pool: tuple[Record, Record]) -> None:
    got = ask(
        memory.memory,
        memory.scope(APP, SPACE),
        "What pool settings?",
        model=FakeChatModel([reply("I have no memory about that", [])]),
    )
    assert (got.text, got.citations, got.mode) == (NO_MEMORY, [], "llm:fake")


@pytest.mark.parametrize("failure", [ProviderUnavailable("down"), InvalidOutput("garbage twice")])
def test_a_failing_model_degrades_to_the_extractive_answer(
    memory: Forethought, pool: tuple[Record, Record], failure: Exception
) -> None:
    got = ask(
        memory.memory, memory.scope(APP, SPACE), "Why don't we keep carts in Redis?", model=FakeChatModel([failure])
    )
    assert got.mode == "heuristic" and got.degraded is not None and "answered from the records" in got.degraded
    assert REDIS in got.text and len(got.citations) == 1


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as s:
        yield s


def http_ask(memory: Forethought, server: FakeOpenAIServer, question: str) -> Any:
    model = OpenAICompatibleModel.local(server.base_url, model="ask-m", max_retries=0, timeout_s=5.0)
    try:
        return ask(memory.memory, memory.scope(APP, SPACE), question, model=model)
    finally:
        model.close()


def test_over_http_a_valid_answer_is_used(
    memory: Forethought, pool: tuple[Record, Record], server: FakeOpenAIServer
) -> None:
    _, new = pool
    server.reply(reply(f"PgBouncer with connection_limit=1 [{new.handle}].", [new.handle]))
    got = http_ask(memory, server, "What database pool settings do we use?")
    assert got.mode == "llm:ask-m" and got.citations == [new.handle]
    assert server.requests[0].body["response_format"] == {"type": "json_object"}


def test_over_http_invalid_output_degrades(
    memory: Forethought, pool: tuple[Record, Record], server: FakeOpenAIServer
) -> None:
    server.invalid_json()
    server.schema_mismatch({"answer": ["not", "text"]})
    got = http_ask(memory, server, "What database pool settings do we use?")
    assert got.mode == "heuristic" and got.degraded is not None and "invalid_output" in got.degraded
    assert SEPTEMBER in got.text


def test_over_http_a_server_error_degrades(
    memory: Forethought, pool: tuple[Record, Record], server: FakeOpenAIServer
) -> None:
    server.status(500)
    got = http_ask(memory, server, "What database pool settings do we use?")
    assert got.degraded is not None and "provider_unavailable" in got.degraded and SEPTEMBER in got.text
