"""The storefront demo, as a user meets it after `serve --demo`: its ADR history, its commits, the
noisy session waiting in the inbox, briefs that keep to the task, and the legacy project apart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from forethought import Forethought, Scope
from forethought.domain import Status
from forethought.embed.base import Embedder
from forethought.server.demo import DEMO_WORKSPACE, seed_demo


@pytest.fixture
def memory(tmp_path: Path, minilm: Embedder) -> Iterator[Forethought]:
    """The demo as it runs: on the default MiniLM embedder, not the tests' hashing one."""
    with Forethought.open(tmp_path / "demo.db", embedder=minilm) as m:
        yield m


@pytest.fixture
def store(memory: Forethought) -> Scope:
    seed_demo(memory)
    return memory.scope("project", "storefront", workspace=DEMO_WORKSPACE)


def test_the_pool_size_adr_arrives_superseded_by_the_pooling_decision(memory: Forethought, store: Scope) -> None:
    (old,) = memory.list_records(store, statuses=(Status.SUPERSEDED,))
    assert "20 database connections" in old.statement and old.superseded_by is not None
    new = memory.get(store, old.superseded_by)
    assert new.status is Status.ACTIVE and "PgBouncer" in new.statement
    assert old.valid_to == new.occurred_at  # valid until the ADR that replaced it was decided
    brief = memory.brief(store, "tune the database connection pool for the API pods", file_paths=["src/lib/db.ts"])
    used = [i.record.id for i in brief.used]
    assert new.id in used and old.id not in used
    answer = memory.ask(store, "What was the database pool size per API pod before PgBouncer?")
    assert "20" in answer.text  # ask describes the old rule as history


def test_the_noisy_session_waits_in_the_inbox_with_its_corrections_only(memory: Forethought, store: Scope) -> None:
    pending = [r.statement for r in memory.inbox(store).pending]
    text = " | ".join(pending)
    assert "integer cents" in text and "moment" in text
    for noise in ("Node 18", "GraphQL", "open the PR", "retry loop"):  # small talk, plans, the agent's proposal
        assert noise not in text


def test_a_ui_only_task_gets_no_backend_rule(memory: Forethought, store: Scope) -> None:
    brief = memory.brief(store, "restyle the buttons on the order history page", file_paths=["src/ui/OrderHistory.tsx"])
    areas = {i.record.attributes.get("area") for i in brief.used}
    assert brief.used and areas <= {"frontend", "ui"}, [i.record.statement for i in brief.used]


def test_a_draft_written_without_memory_is_flagged_and_the_compliant_one_passes(
    memory: Forethought, store: Scope
) -> None:
    naive = "import moment from 'moment';\nexport const when = (d: Date) => moment(d).format('LL');\n"
    flagged = memory.check(store, naive, path="src/ui/dates.ts")
    assert any("moment" in v.excerpt for v in flagged.violations)
    compliant = "import { format } from 'date-fns';\nexport const when = (d: Date) => format(d, 'PP');\n"
    assert memory.check(store, compliant, path="src/ui/dates.ts").violations == []


def test_the_legacy_projects_contradicting_rules_never_reach_the_storefront(memory: Forethought, store: Scope) -> None:
    legacy = memory.scope("project", "storefront-legacy", workspace=DEMO_WORKSPACE)
    assert any("moment.js" in r.statement for r in memory.list_records(legacy))
    brief = memory.brief(store, "format dates on the invoice page", file_paths=["src/ui/Invoice.tsx"])
    assert all("legacy" not in i.record.statement for i in brief.used)
    assert all(
        r.space_id != memory.space(legacy).id for r in (h.record for h in memory.recall(store, "moment.js dates").hits)
    )
    answer = memory.ask(store, "Can I use moment.js for dates?")
    assert "legacy" not in answer.text and "date-fns" in answer.text


def test_commit_decisions_are_dated_when_they_were_committed(memory: Forethought, store: Scope) -> None:
    records = [r for r in memory.list_records(store) if "source:git" in r.tags]
    assert {r.occurred_at.date().isoformat() for r in records} == {"2025-12-02", "2026-02-03"}
