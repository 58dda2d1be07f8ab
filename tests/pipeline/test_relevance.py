"""The brief's learned relevance: pinned weights, calibrated decisions, precision first, and the
fallback to the rule and heuristic verdicts when the model is missing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from forethought import Forethought
from forethought.apps.project import ProjectApp
from forethought.domain import Evidence
from forethought.embed.base import Embedder, Vectors
from forethought.embed.hashing import HashingEmbedder
from forethought.errors import ModelUnavailable
from forethought.judge.model import WEIGHTS_DIR
from forethought.pipeline import brief as brief_stage
from forethought.pipeline.relevance import FEATURES, RelevanceModel, feature_rows, judge_embedder, relevance_model

NAME, SHA = ProjectApp.relevance or ("", "")
RULES = [
    ("constraint", "Payment amounts are integer cents; never use floats for money in billing/.", "payments"),
    ("convention", "Buttons use the shared <Button> component from ui/kit with the design tokens.", "frontend"),
    ("process", "Database migrations ship in their own PR, one migration per PR.", "db"),
    ("constraint", "Never log access tokens or session cookies, not even at debug level.", "auth"),
]


def test_the_shipped_model_matches_its_pin_and_an_altered_file_is_refused(tmp_path: Path) -> None:
    model = relevance_model(NAME, SHA)
    assert model.features == FEATURES and 0.0 < model.threshold < 1.0
    (tmp_path / f"relevance-{NAME}.json").write_text((WEIGHTS_DIR / f"relevance-{NAME}.json").read_text() + " ")
    with pytest.raises(ModelUnavailable, match="fails its hash check"):
        relevance_model(NAME, SHA, folder=tmp_path)
    with pytest.raises(ModelUnavailable, match="does not exist"):
        relevance_model("nothing", SHA)


def test_chosen_keeps_records_above_the_threshold_and_near_the_best() -> None:
    model = RelevanceModel(FEATURES, (0.0,) * len(FEATURES), 0.0, threshold=0.5, margin=0.2, embedder="x")
    assert model.chosen(np.array([0.55, 0.95, 0.8, 0.7], dtype=np.float32)) == [1, 2]
    assert model.chosen(np.array([0.3, 0.45], dtype=np.float32)) == []  # nothing applies: no padding
    assert model.chosen(np.array([], dtype=np.float32)) == []


def _seeded(memory: Forethought) -> None:
    scope = memory.scope("project", "ledgerly")
    for kind, text, area in RULES:
        memory.retain(scope, text, kind=kind, tags=[f"area:{area}"], attributes={"rule": text, "area": area})


def test_a_ui_task_gets_the_ui_rule_and_no_payment_or_security_rule(tmp_path: Path) -> None:
    with Forethought.open(tmp_path / "m.db", embedder="minilm") as memory:
        _seeded(memory)
        brief = memory.brief(memory.scope("project", "ledgerly"), "Make the Save button on the settings page bigger",
                             file_paths=["ui/settings/SaveBar.tsx"])  # fmt: skip
    briefed = [i.record.statement for i in brief.used]
    assert briefed and "<Button>" in briefed[0]
    assert not any("cents" in s or "access tokens" in s for s in briefed)
    assert all("relevance" in i.reason for i in brief.used)
    assert any(f.reason.startswith("not applicable: relevance") for f in brief.filtered)


def test_without_the_model_the_brief_keeps_the_rule_and_heuristic_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Forethought.open(tmp_path / "m.db", embedder="hashing") as memory:
        _seeded(memory)
        scope = memory.scope("project", "ledgerly")
        monkeypatch.setattr(type(scope.app), "relevance", (NAME, "0" * 64))  # a pin nothing matches
        brief = memory.brief(scope, "Fix the rounding of invoice totals in billing/invoice.py")
    assert brief.used and not any("relevance" in i.reason for i in brief.used)
    assert "cents" in brief.used[0].record.statement


class _Counting(Embedder):
    """Another embedder's vectors, under its name, remembering every text it was asked for."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dim, self.asked = inner, inner.name, inner.dim, []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.asked += list(texts)
        return self.inner.embed(texts)


def _quoted(memory: Forethought) -> list[str]:
    scope = memory.scope("project", "ledgerly")
    ids = []
    for kind, text, area in RULES:
        said = Evidence(quote=f"in review we said so: {text.lower()}", session_id="s1", turn_index=1)
        ids.append(memory.retain(scope, text, kind=kind, evidence=[said], attributes={"area": area}).record.id)
    return ids


def test_features_read_from_the_stored_vectors_equal_those_embedded_again(tmp_path: Path) -> None:
    with Forethought.open(tmp_path / "m.db", embedder="hashing") as memory:
        ids = _quoted(memory)
        scope = memory.scope("project", "ledgerly")
        records = [memory.get(scope, i) for i in ids]
        space = memory.memory.space_of(scope, create=False)
        assert space is not None
        stored = memory.store.search.record_vectors(space.id, ids)
    task, paths = "Round invoice totals per line", ["billing/invoice.py"]
    again, reused = _Counting(HashingEmbedder()), _Counting(HashingEmbedder())
    fresh = feature_rows(task, paths, records, scope.app, again)
    kept = feature_rows(task, paths, records, scope.app, reused, stored=stored)
    np.testing.assert_allclose(kept, fresh, atol=5e-3)  # float16 storage
    assert len(again.asked) == 1 + 2 * len(records)
    assert reused.asked == [" ".join([task, *paths])]  # only the task is embedded


def test_a_brief_embeds_the_task_and_not_the_records_it_scores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _Counting(judge_embedder())
    monkeypatch.setattr(brief_stage, "judge_embedder", lambda: counting)
    with Forethought.open(tmp_path / "m.db", embedder="minilm") as memory:
        _quoted(memory)
        task = "Make the Save button on the settings page bigger"
        brief = memory.brief(memory.scope("project", "ledgerly"), task, file_paths=["ui/settings/SaveBar.tsx"])
    assert brief.used and "<Button>" in brief.used[0].record.statement
    assert counting.asked == [f"{task} ui/settings/SaveBar.tsx"]


def test_a_brief_runs_the_model_once_for_its_query_and_its_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Forethought.open(tmp_path / "m.db", embedder="minilm") as memory:
        _quoted(memory)
        assert memory.embedder is judge_embedder()  # one model serves the store and the features
        calls: list[list[str]] = []
        real = memory.embedder.embed
        monkeypatch.setattr(memory.embedder, "embed", lambda texts: calls.append(list(texts)) or real(texts))
        task = "Round every invoice line to integer cents before summing"
        brief = memory.brief(memory.scope("project", "ledgerly"), task, file_paths=["billing/invoice.py"])
    assert brief.used
    assert calls == [[task, f"{task} billing/invoice.py"]]  # recall's query and the features' text, in one batch
