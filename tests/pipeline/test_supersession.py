"""A later session that amends a rule proposes to supersede it; approving retires the old one with
its validity window, and `as_of` answers from the imported history (sessions dated when they
happened, not when they were imported)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from forethought import Forethought, Role, Status
from forethought.domain import RelationLabel, Turn

MARCH, MAY = datetime(2026, 3, 2, 10, tzinfo=UTC), datetime(2026, 5, 11, 15, tzinfo=UTC)


def _session(memory: Forethought, text: str, when: datetime, title: str) -> list[str]:
    scope = memory.scope("project", "freightly")
    turns = [Turn(index=0, role=Role.USER, text=text)]
    done = memory.submit_session(scope, turns, title=title, occurred_at=when)
    return [item.record.id for item in done.result.submission.items if item.outcome == "pending"]


def test_a_later_session_that_amends_a_rule_supersedes_it_and_as_of_follows_the_history(tmp_path: Path) -> None:
    with Forethought.open(tmp_path / "m.db", embedder="minilm") as memory:
        scope = memory.scope("project", "freightly")
        [first] = _session(memory, "We never retry the carrier webhook more than 3 times.", MARCH, "march")
        old = memory.approve(scope, first)
        [second] = _session(memory, "We retry the carrier webhook at most 5 times now, not 3.", MAY, "may")
        candidate = memory.get(scope, second)
        assert candidate.relation is not None and candidate.relation.label is RelationLabel.SUPERSEDES
        assert candidate.relation.target_id == old.id
        new = memory.approve(scope, second)
        retired = memory.get(scope, old.id)
        assert retired.status is Status.SUPERSEDED and retired.valid_to == MAY
        assert new.occurred_at == MAY and new.supersedes == (old.id,)
        april = memory.recall(scope, "carrier webhook retries", as_of="2026-04-01").hits
        june = memory.recall(scope, "carrier webhook retries", as_of="2026-06-01").hits
        assert [h.record.id for h in april] == [old.id]
        assert [h.record.id for h in june] == [new.id]


def test_an_unrelated_later_rule_is_new_even_when_it_says_now(tmp_path: Path) -> None:
    with Forethought.open(tmp_path / "m.db", embedder="minilm") as memory:
        scope = memory.scope("project", "freightly")
        [first] = _session(memory, "We never retry the carrier webhook more than 3 times.", MARCH, "march")
        memory.approve(scope, first)
        [second] = _session(memory, "Invoices must now use the shared PDF template in billing/pdf.", MAY, "may")
        relation = memory.get(scope, second).relation
        assert relation is None or relation.label is RelationLabel.NEW
