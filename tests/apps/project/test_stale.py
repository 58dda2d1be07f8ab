"""Staleness: review dates renewed by confirmation, and evidence checked in the working tree."""

from __future__ import annotations

import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from forethought import Forethought, Scope
from forethought.errors import InvalidInput
from forethought.projects.stale import evidence_of, review_queue


@pytest.fixture
def shop(memory: Forethought) -> Scope:
    return memory.scope("project", "shop")


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def test_a_rule_cites_its_files_and_the_functions_it_says_to_call(memory: Forethought, shop: Scope) -> None:
    rule = memory.retain(shop, "Always go through `charge()` in src/payments/gateway.py; never call `stripe.create()` "
                         "directly. Migrations live in db/migrations/.", kind="architecture").record  # fmt: skip
    evidence = evidence_of(rule)
    assert evidence.files == ("src/payments/gateway.py", "db/migrations/")
    assert evidence.calls == ("charge",)  # a forbidden call is no evidence: its absence keeps the rule
    plain = memory.retain(shop, "Prefer small pull requests and/or short reviews.", kind="preference").record
    assert evidence_of(plain).files == () and evidence_of(plain).calls == ()


def test_evidence_gone_from_the_tree_queues_the_rule_once(memory: Forethought, shop: Scope, tmp_path: Path) -> None:
    kept = memory.retain(shop, "Always go through `charge()` in src/payments/gateway.py.", kind="architecture").record
    gone = memory.retain(shop, "Create PrismaClient once in src/lib/db.ts and import it.", kind="convention").record
    renamed = memory.retain(shop, "Every admin route calls `requireRole()` first.", kind="constraint").record
    repo = _repo(tmp_path, {"src/payments/gateway.py": "def charge(amount):\n    ...\n", "src/lib/prisma.ts": "x"})
    queue = review_queue(memory, shop, repo=repo)
    assert {s.record.id: s.missing for s in queue} == {gone.id: ["src/lib/db.ts"], renamed.id: ["requireRole()"]}
    assert kept.id not in {s.record.id for s in queue}
    # the mark stays without the tree, and is written once
    again = review_queue(memory, shop)
    assert {s.record.id for s in again} == {gone.id, renamed.id}
    assert all("marked stale" in " ".join(s.reasons) for s in again)
    review_queue(memory, shop, repo=repo)
    marks = [e for e in memory.audit_events(shop, record_id=gone.id) if e.details.get("verdict") == "stale"]
    assert len(marks) == 1


def test_confirming_renews_the_review_date(memory: Forethought, shop: Scope) -> None:
    rule = memory.retain(shop, "Releases ship every Tuesday.", kind="process").record
    (due,) = review_queue(memory, shop, now=datetime.now(UTC) + timedelta(days=200))
    assert due.record.id == rule.id and "not re-confirmed since" in due.reasons[0]
    assert review_queue(memory, shop, now=due.due - timedelta(microseconds=1)) == []
    time.sleep(0.01)
    event = memory.note_review(shop, rule.id, "confirmed", reason="still true")
    renewed = event.at + timedelta(days=180)
    assert renewed > due.due
    assert review_queue(memory, shop, now=due.due + (renewed - due.due) / 2) == []  # would have been due
    (again,) = review_queue(memory, shop, now=renewed)
    assert again.due == renewed


def test_a_confirmation_clears_a_stale_mark(memory: Forethought, shop: Scope) -> None:
    rule = memory.retain(shop, "Create PrismaClient once in src/lib/db.ts.", kind="convention").record
    memory.note_review(shop, rule.id, "stale", reason="evidence gone: src/lib/db.ts")
    assert [s.record.id for s in review_queue(memory, shop)] == [rule.id]
    memory.note_review(shop, rule.id, "confirmed", reason="moved, the rule stands")
    assert review_queue(memory, shop) == []


def test_only_current_rules_are_reviewed_and_bad_days_are_refused(memory: Forethought, shop: Scope) -> None:
    rule = memory.retain(shop, "Releases ship every Tuesday.", kind="process").record
    memory.retract(shop, rule.id, why="no longer true")
    with pytest.raises(InvalidInput, match="only a current rule"):
        memory.note_review(shop, rule.id, "confirmed")
    with pytest.raises(InvalidInput, match="days"):
        review_queue(memory, shop, days=0)
