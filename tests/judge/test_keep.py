"""The keep model: pinned weights, the placement it reads, and what it keeps of a conversation.
Conversations are written for these tests, not taken from the tuning or blind sets; the model's
measured effect lives in bench/ (docs/benchmarks.md)."""

from __future__ import annotations

import hashlib
from importlib import import_module
from pathlib import Path

import pytest

from forethought.apps.project import APP
from forethought.apps.project.extract import KEEP, extract, judged
from forethought.domain.candidates import Flag
from forethought.errors import ModelUnavailable
from forethought.judge import shared_judge
from forethought.judge.keep import KEEP_FEATURES, KeepModel, feature_row, is_conversation, keep_model, placement
from forethought.judge.model import WEIGHTS_DIR
from forethought.pipeline.validator import validate
from tests.apps.conftest import session

# A conversation that opens with the task and settles a standing rule on the way.
OPENS_WITH_A_TASK = (
    ("user", "I need you to add pagination to the orders endpoint in api/orders.py, the mobile team is waiting."),
    ("agent", "Sure. Should the page size be configurable by the caller?"),
    ("user", "Yes, but never return more than 100 rows per page, that is a hard limit for every list endpoint."),
    ("agent", "Understood: a max page size of 100 across list endpoints. I'll add it to the orders endpoint."),
    ("user", "good. the tests are in tests/api/test_orders.py"),
    ("agent", "I added cases for page 1, the last page and a page size of 101, which is refused."),
    ("user", "looks right, run them"),
    ("agent", "All 14 tests pass."),
    ("user", "good, thanks"),
)


def test_the_shipped_keep_weights_match_their_pin_and_read_every_feature() -> None:
    model = keep_model(*KEEP)
    assert model.features == KEEP_FEATURES and len(model.weights) == len(KEEP_FEATURES)
    assert 0.0 < model.threshold < 1.0 and model.embedder == shared_judge().embedder.name


def test_altered_or_missing_keep_weights_are_refused(tmp_path: Path) -> None:
    data = bytearray((WEIGHTS_DIR / "keep-project.json").read_bytes())
    (tmp_path / "keep-project.json").write_bytes(bytes(data[:-2]) + b" \n")
    with pytest.raises(ModelUnavailable, match="fails its hash check"):
        keep_model("project", KEEP[1], folder=tmp_path)
    with pytest.raises(ModelUnavailable, match="does not exist"):
        keep_model("other", KEEP[1], folder=tmp_path)


def test_weights_of_other_features_are_refused(tmp_path: Path) -> None:
    model = KeepModel(("durable",), (1.0,), 0.0, 0.5, shared_judge().embedder.name)
    data = model.to_json().encode()
    (tmp_path / "keep-odd.json").write_bytes(data)
    with pytest.raises(ModelUnavailable, match="use features"):
        keep_model("odd", hashlib.sha256(data).hexdigest(), folder=tmp_path)


def test_placement_reads_the_opening_turn_the_question_before_and_the_share_of_the_turn() -> None:
    s = session(*OPENS_WITH_A_TASK)
    opening = placement(s, s.turns[0], s.turns[0].text)
    answer = placement(s, s.turns[2], "never return more than 100 rows per page")
    assert opening.opening_turn and not opening.answers_question and opening.position == 0.0
    assert not answer.opening_turn and answer.answers_question and 0.0 < answer.share_of_turn < 1.0
    assert answer.words == 8 and answer.position == pytest.approx(2 / 9)


def test_a_short_exchange_is_no_conversation_and_its_first_turn_is_no_opening() -> None:
    s = session(("user", "We decided to use Postgres."), ("agent", "Noted."), ("user", "We never log tokens."),
                ("agent", "Noted."), ("user", "Thanks."))  # fmt: skip
    assert not is_conversation(s) and not placement(s, s.turns[0], s.turns[0].text).opening_turn
    assert is_conversation(session(*OPENS_WITH_A_TASK))


def test_the_same_sentence_is_less_likely_kept_in_the_opening_turn() -> None:
    s = session(*OPENS_WITH_A_TASK)
    [rule] = [f for f in judged(s, shared_judge()) if f.candidate.evidence[0].turn_index == 2]
    model = keep_model(*KEEP)
    later = model.probability(rule.judgement, rule.where)
    opening = model.probability(rule.judgement, placement(s, s.turns[0], rule.candidate.evidence[0].quote))
    assert opening < later
    assert len(feature_row(rule.judgement, rule.where)) == len(KEEP_FEATURES)


def test_the_task_that_opens_a_conversation_is_flagged_unlikely_and_the_rule_settled_in_it_is_not() -> None:
    found = {c.evidence[0].quote: c for c in extract(session(*OPENS_WITH_A_TASK))}
    [rule] = [c for q, c in found.items() if "never return more than 100 rows per page" in q]
    assert Flag.UNLIKELY not in rule.flags
    assert all(Flag.UNLIKELY in c.flags for q, c in found.items() if "add pagination" in q)


def test_the_validator_files_what_the_keep_model_doubts_and_passes_the_rest() -> None:
    s = session(*OPENS_WITH_A_TASK)
    candidates = extract(s)
    report = validate(candidates, s, APP)
    doubted = [c for c in candidates if Flag.UNLIKELY in c.flags]
    assert {r.candidate.statement for r in report.validated.rejected if r.rule == "unlikely"} == {
        c.statement for c in doubted
    }
    assert all(Flag.UNLIKELY not in c.flags for c in report.validated.accepted) and report.validated.accepted


def test_the_keep_model_only_flags_and_every_confidence_stays_the_judges() -> None:
    s = session(*OPENS_WITH_A_TASK)
    assert [(c.statement, c.confidence) for c in extract(s)] == [
        (f.candidate.statement, f.candidate.confidence) for f in judged(s, shared_judge())
    ]


def test_without_keep_weights_every_durable_sentence_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    s = session(*OPENS_WITH_A_TASK)
    monkeypatch.setattr(import_module("forethought.apps.project.extract"), "KEEP", ("project", "0" * 64))
    everything = {c.statement for c in extract(s)}
    assert everything == {f.candidate.statement for f in judged(s, shared_judge())}
