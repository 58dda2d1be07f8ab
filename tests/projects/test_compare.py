"""Compare mode against the fake OpenAI server on loopback: the same model with and without the
memory block, every output checked blind, the fairness line built from what happened."""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from forethought import Forethought, Scope
from forethought.domain import CheckPatterns
from forethought.errors import InvalidInput
from forethought.llm import ChatModel, ChatResult, FakeOpenAIServer, Message, OpenAICompatibleModel, ProviderError
from forethought.llm.fake_server import RecordedRequest, Reply, Status
from forethought.projects.compare import compare, only_the_block_differs, prompt

TASK = "Write a function that logs each order total."
INSTRUCTIONS = prompt("x", (), "")[0].content  # the system prompt of the baseline: instructions only
RESPECTS = "```python\nimport logging\n\nlog = logging.getLogger(__name__)\n\n\ndef log_totals(orders):\n    for order in orders:\n        log.info('total %s', order.total)\n```"  # noqa: E501
BREAKS = "```python\ndef log_totals(orders):\n    for order in orders:\n        print(order.total)\n```"

Answer = Reply | Status


def is_generation(request: RecordedRequest) -> bool:
    return str(request.body["messages"][0]["content"]).endswith(INSTRUCTIONS)


def has_block(request: RecordedRequest) -> bool:
    return "<memory>" in str(request.body["messages"][0]["content"])


class Script:
    """The fake model: generation answers by arm (a callable of the arm's call number), and the
    brief's and check's judges answer with nothing to add."""

    def __init__(self) -> None:
        self.memory: Callable[[int], Answer] = lambda n: Reply(RESPECTS)
        self.baseline: Callable[[int], Answer] = lambda n: Reply(BREAKS)
        self.calls = {"memory": 0, "baseline": 0}

    def __call__(self, request: RecordedRequest) -> Answer:
        system = str(request.body["messages"][0]["content"])
        if is_generation(request):
            arm = "memory" if has_block(request) else "baseline"
            self.calls[arm] += 1
            return (self.memory if arm == "memory" else self.baseline)(self.calls[arm])
        if system.startswith("You review a draft"):
            return Reply('{"findings": []}')
        return Reply('{"verdicts": []}')


@contextmanager
def fake_coder(memory: Forethought, script: Script) -> Iterator[OpenAICompatibleModel]:
    """`memory` answering through the fake OpenAI server on loopback, scripted by `script`."""
    with FakeOpenAIServer(default=script) as server:
        chat = OpenAICompatibleModel.local(server.base_url, model="fake-coder", timeout_s=5.0, max_retries=0)
        memory.model = chat
        try:
            yield chat
        finally:
            memory.model = None
            chat.close()


@pytest.fixture
def script() -> Script:
    return Script()


@pytest.fixture
def server(script: Script) -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(default=script) as s:
        yield s


@pytest.fixture
def shop(tmp_path: Path, server: FakeOpenAIServer) -> Iterator[tuple[Forethought, Scope, str]]:
    with Forethought.open(tmp_path / "memory.db", embedder="hashing") as memory:
        scope = memory.scope("project", "shop")
        rule = memory.retain(scope, "Log through the structured logger; never call print() in application code.",
                             kind="convention", check=CheckPatterns(forbid=(r"\bprint\(",))).record  # fmt: skip
        memory.retain(scope, "Money amounts are integer cents, never floats.", kind="decision")
        memory.retain(scope, "The checkout page talks to the payments service over gRPC.", kind="decision")
        model = OpenAICompatibleModel.local(server.base_url, model="fake-coder", timeout_s=5.0, max_retries=0)
        memory.model = model
        yield memory, scope, rule.handle
        model.close()


def generations(server: FakeOpenAIServer) -> list[RecordedRequest]:
    return [r for r in server.requests if r.path.endswith("/chat/completions") and is_generation(r)]


def test_the_memory_arm_keeps_the_rule_the_baseline_breaks(shop: tuple[Forethought, Scope, str]) -> None:
    memory, scope, handle = shop
    result = compare(memory, scope, TASK, repeat=3)
    assert [(r.memory.violations, r.baseline.violations) for r in result.rounds if r.memory and r.baseline] == [
        (0, 1)
    ] * 3
    assert all(r.baseline is not None and r.baseline.handles == (handle,) for r in result.rounds)
    with_memory, without = result.summary("memory"), result.summary("baseline")
    assert (with_memory.mean, with_memory.low, with_memory.high, with_memory.stdev) == (0.0, 0, 0, 0.0)
    assert (without.mean, without.low, without.high, without.stdev) == (1.0, 1, 1, 0.0)
    assert without.broken == (handle,) and with_memory.broken == ()
    assert result.model == "local:fake-coder" and result.temperature == 0.0
    assert handle in result.briefed and result.block_tokens > 0


def test_the_fairness_line_states_what_happened(shop: tuple[Forethought, Scope, str]) -> None:
    memory, scope, _ = shop
    result = compare(memory, scope, TASK, repeat=3)
    assert result.memory_calls == {"brief": 1, "memory": 0, "baseline": 0, "check": 6}
    fairness = result.fairness
    assert fairness.startswith("same model local:fake-coder, temperature 0, ")
    assert f"prompts identical except the {result.block_tokens}-token memory block" in fairness
    assert "memory arm made 1 memory call(s)" in fairness and "baseline made 0 memory calls" in fairness
    assert "6 outputs checked blind" in fairness and "3 of 3 rounds completed" in fairness
    assert "each arm's output was identical in all 3 rounds (temperature 0), so a spread of 0 is expected" in fairness
    assert result.identical == {"memory": True, "baseline": True}


def test_the_two_prompts_differ_only_by_the_memory_block(
    shop: tuple[Forethought, Scope, str], server: FakeOpenAIServer
) -> None:
    memory, scope, _ = shop
    compare(memory, scope, TASK, repeat=2, file_paths=["shop/orders.py"])
    sent = generations(server)
    assert len(sent) == 4
    with_block = [r.body for r in sent if has_block(r)]
    without = [r.body for r in sent if not has_block(r)]
    assert len(with_block) == len(without) == 2
    memory.model = None
    block = memory.brief(scope, TASK, file_paths=["shop/orders.py"], max_excerpts=0).block
    assert block and "<memory>" in block
    for a, b in zip(with_block, without, strict=True):
        assert a["messages"][0]["content"] == f"{block}\n\n{b['messages'][0]['content']}"
        assert a["messages"][1:] == b["messages"][1:]
        assert a["messages"][1]["content"] == f"{TASK}\n\nFiles: shop/orders.py"
        assert {k: v for k, v in a.items() if k != "messages"} == {k: v for k, v in b.items() if k != "messages"}
        assert a["temperature"] == 0 and a["model"] == "fake-coder"


def test_only_the_block_differs_refuses_any_other_difference() -> None:
    block = "<memory>\n[abc] (rule) x\n</memory>"
    assert only_the_block_differs(prompt("t", (), block), prompt("t", (), ""), block)
    assert not only_the_block_differs(prompt("t", (), block), prompt("t2", (), ""), block)
    assert not only_the_block_differs(prompt("t", ("a.py",), block), prompt("t", (), ""), block)
    assert not only_the_block_differs(prompt("t", (), block), prompt("t", (), ""), "other block")
    assert only_the_block_differs(prompt("t", (), ""), prompt("t", (), ""), "")


class Peeking(ChatModel):
    """A model that reads memory itself whenever it answers without the block."""

    def __init__(self, inner: ChatModel, memory: Forethought, scope: Scope) -> None:
        self.inner, self.memory, self.scope = inner, memory, scope
        self.name, self.provider = inner.name, inner.provider

    def chat(self, messages: Sequence[Message], **options: Any) -> ChatResult:
        if messages[0].content == INSTRUCTIONS:
            self.memory.recall(self.scope, "logging")
        return self.inner.chat(messages, **options)


def test_memory_calls_are_observed_not_declared(shop: tuple[Forethought, Scope, str]) -> None:
    memory, scope, _ = shop
    real = memory.model
    assert real is not None
    memory.model = Peeking(real, memory, scope)
    result = compare(memory, scope, TASK, repeat=2)
    assert result.memory_calls["baseline"] == 2 and result.memory_calls["memory"] == 0
    assert "baseline made 2 memory calls" in result.fairness
    assert "recall" not in vars(memory)  # the watch is gone once compare returns


def test_outputs_are_checked_blind_in_a_shuffled_order(
    shop: tuple[Forethought, Scope, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory, scope, _ = shop
    seen: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    real_check = Forethought.check

    def spy(self: Forethought, *args: Any, **kwargs: Any) -> Any:
        seen.append((args, kwargs))
        return real_check(self, *args, **kwargs)

    monkeypatch.setattr(Forethought, "check", spy)
    compare(memory, scope, TASK, repeat=3, file_paths=["shop/orders.py"])
    assert len(seen) == 6
    assert all(args[0] == scope and kwargs == {"path": "shop/orders.py"} for args, kwargs in seen)  # no records
    respects_code = RESPECTS.split("\n", 1)[1].rsplit("\n", 1)[0]  # what the fence holds
    order = ["memory" if args[1] == respects_code else "baseline" for args, _ in seen]
    assert sorted(order) == ["baseline"] * 3 + ["memory"] * 3
    generated = ["memory", "baseline", "baseline", "memory", "memory", "baseline"]  # the arms take turns going first
    assert order != generated


def test_a_spread_shows_when_answers_vary(shop: tuple[Forethought, Scope, str], script: Script) -> None:
    memory, scope, _ = shop
    script.baseline = lambda n: Reply(BREAKS if n % 2 else RESPECTS)
    result = compare(memory, scope, TASK, repeat=2)
    without = result.summary("baseline")
    assert (without.mean, without.low, without.high) == (0.5, 0, 1)
    assert without.stdev == pytest.approx(statistics.pstdev([1, 0]))
    assert result.identical == {"memory": True, "baseline": False}
    assert "the memory arm's output was identical in all 2 rounds" in result.fairness
    assert "spread of 0" not in result.fairness


def test_a_failed_arm_fails_its_round_for_both_arms(
    shop: tuple[Forethought, Scope, str], script: Script, server: FakeOpenAIServer
) -> None:
    memory, scope, _ = shop
    script.baseline = lambda n: Status(400, message="scripted refusal") if n == 2 else Reply(BREAKS)
    result = compare(memory, scope, TASK, repeat=3)
    failed = [r for r in result.rounds if r.failed is not None]
    assert [r.index for r in failed] == [2]
    assert failed[0].memory is None and failed[0].baseline is None
    assert "baseline arm's model call failed" in str(failed[0].failed)
    assert result.summary("memory").mean == 0.0 and result.summary("baseline").mean == 1.0
    assert result.memory_calls["check"] == 4  # the failed round's other answer is never checked
    assert "2 of 3 rounds completed" in result.fairness and "4 outputs checked blind" in result.fairness
    assert "round 2: failed" in result.text()


def test_an_empty_answer_fails_its_round(shop: tuple[Forethought, Scope, str], script: Script) -> None:
    memory, scope, _ = shop
    script.memory = lambda n: Reply("```python\n```") if n == 1 else Reply(RESPECTS)
    result = compare(memory, scope, TASK, repeat=2)
    assert [r.failed for r in result.rounds] == ["the memory arm's answer was empty", None]


def test_every_round_failing_is_an_error(shop: tuple[Forethought, Scope, str], script: Script) -> None:
    memory, scope, _ = shop
    script.memory = lambda n: Status(400)
    with pytest.raises(ProviderError, match=r"every one of the 2 round\(s\) failed; round 1: the memory arm"):
        compare(memory, scope, TASK, repeat=2)
    assert "check" not in vars(memory)


def test_without_a_model_compare_refuses(shop: tuple[Forethought, Scope, str], server: FakeOpenAIServer) -> None:
    memory, scope, _ = shop
    memory.model = None
    with pytest.raises(InvalidInput, match="compare needs a language model: set FORETHOUGHT_LLM_BASE_URL"):
        compare(memory, scope, TASK)
    assert server.requests == []


@pytest.mark.parametrize("repeat", [0, 11, -1, True])
def test_repeat_is_bounded(shop: tuple[Forethought, Scope, str], server: FakeOpenAIServer, repeat: int) -> None:
    memory, scope, _ = shop
    with pytest.raises(InvalidInput, match="repeat: must be a whole number from 1 to 10"):
        compare(memory, scope, TASK, repeat=repeat)
    assert server.requests == []


@pytest.mark.parametrize("repeat", [1, 10])
def test_repeat_bounds_are_inclusive(shop: tuple[Forethought, Scope, str], repeat: int) -> None:
    memory, scope, _ = shop
    result = compare(memory, scope, TASK, repeat=repeat)
    assert len(result.completed) == repeat and result.memory_calls["check"] == 2 * repeat
    assert (repeat == 1) == ("identical in all" not in result.fairness)


def test_the_comparison_is_json(shop: tuple[Forethought, Scope, str]) -> None:
    memory, scope, handle = shop
    result = compare(memory, scope, TASK, repeat=2)
    data = json.loads(json.dumps(result.as_json()))
    assert data["summary"]["baseline"] == {"mean": 1.0, "min": 1, "max": 1, "stdev": 0.0, "broken": [handle],
                                           "identical_outputs": True}  # fmt: skip
    assert data["rounds"][0]["baseline"]["handles"] == [handle] and data["fairness"] == result.fairness
    tokens = data["tokens"]
    assert tokens["total"] == tokens["brief"] + tokens["memory"] + tokens["baseline"] + tokens["check"]
    assert tokens["memory"] > tokens["baseline"] > 0  # the block costs prompt tokens
    assert data["seconds"] > 0 and "with memory: 0.00 violations a round" in result.text()
