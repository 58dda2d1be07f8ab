"""The pair judge: pinned weights, calibrated "amends" against restatements and neighbours, and the
relation stage proposing a supersession it finds (falling back to its rule without the model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forethought import Forethought
from forethought.domain import RelationLabel
from forethought.domain.candidates import Candidate
from forethought.errors import ModelUnavailable
from forethought.judge import pairs
from forethought.judge.pairs import PAIRS, PAIRS_SHA256, PairJudge, shared_pair_judge
from forethought.pipeline import relate as relate_module
from forethought.pipeline.relate import relate


def test_altered_or_missing_weights_are_refused(tmp_path: Path) -> None:
    altered = tmp_path / "pairs.npz"
    altered.write_bytes(PAIRS.read_bytes() + b"\0")
    with pytest.raises(ModelUnavailable):
        PairJudge(path=altered, sha256=PAIRS_SHA256).probabilities([("a", "b")])
    with pytest.raises(ModelUnavailable):
        PairJudge(path=tmp_path / "none.npz", sha256=PAIRS_SHA256).probabilities([("a", "b")])


def test_a_changed_value_amends_and_a_neighbouring_rule_does_not() -> None:
    said = shared_pair_judge().probabilities(
        [
            ("Deploys happen on Tuesdays after the standup.", "Deploys happen on Thursdays after the standup."),
            ("Keep application logs for 90 days.", "Application logs are kept 30 days from now on."),
            ("Migrations ship in their own PR.", "Every migration needs a down step."),  # both stand
            ("Use ruff for formatting.", "The CI cache lives in S3."),
        ]
    )
    assert all(abs(sum(p.values()) - 1.0) < 1e-4 for p in said)
    bar = relate_module.AMEND_PROBABILITY
    assert said[0]["amends"] >= bar and said[1]["amends"] >= bar  # the first says no contrast word at all
    assert said[2]["amends"] < bar and said[3]["amends"] < bar
    assert max(said[2], key=said[2].__getitem__) == "related" and max(said[3], key=said[3].__getitem__) == "unrelated"


def _candidate(text: str) -> Candidate:
    return Candidate(kind="process", statement=text, confidence=0.9)


def test_relation_proposes_the_supersession_the_pair_judge_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Forethought.open(tmp_path / "m.db", embedder="minilm") as memory:
        scope = memory.scope("project", "ferry")
        old = memory.retain(scope, "Keep application logs for 90 days.", kind="process").record
        [found] = relate(memory.memory, scope, [_candidate("Application logs are kept 30 days from now on.")])
        assert found.label is RelationLabel.SUPERSEDES and found.target_id == old.id and "pair judge" in found.reason

        monkeypatch.setattr(relate_module, "shared_pair_judge", lambda: PairJudge(sha256="0" * 64))
        [fallback] = relate(memory.memory, scope, [_candidate("Application logs are kept 30 days from now on.")])
        assert fallback.label is RelationLabel.SUPERSEDES and "pair judge" not in fallback.reason
        assert relate_module.shared_pair_judge() is not pairs.shared_pair_judge()  # the fallback ran unpinned
