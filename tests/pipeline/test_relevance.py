"""The brief's learned relevance: pinned weights, calibrated decisions, precision first, and the
fallback to the rule and heuristic verdicts when the model is missing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from forethought import Forethought
from forethought.apps.project import ProjectApp
from forethought.errors import ModelUnavailable
from forethought.judge.model import WEIGHTS_DIR
from forethought.pipeline.relevance import FEATURES, RelevanceModel, relevance_model

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
