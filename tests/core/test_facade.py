"""The façade's behaviour: retain, recall, supersede, edit, retract, history."""

from __future__ import annotations

import pytest

from forethought import Conflict, Forethought, InvalidInput, InvalidTransition, NotFound, RetainItem, SpaceKey, Status
from forethought.domain import Action


def test_retain_is_idempotent_by_external_id(memory: Forethought) -> None:
    first = memory.retain(
        memory.scope("generic", "ana"), "Ana applied to Contoso.", kind="application", external_id="ext-1"
    )
    again = memory.retain(
        memory.scope("generic", "ana"), "Ana applied to Contoso.", kind="application", external_id="ext-1"
    )
    assert first.created and not again.created
    assert again.record.id == first.record.id
    assert len(memory.list_records(memory.scope("generic", "ana"))) == 1
    with pytest.raises(Conflict):
        memory.retain(
            memory.scope("generic", "ana"), "Something else entirely.", kind="application", external_id="ext-1"
        )
    assert len(memory.list_records(memory.scope("generic", "ana"))) == 1


def test_retain_many_deduplicates_external_ids_within_a_batch(memory: Forethought) -> None:
    items = [RetainItem("Same.", external_id="a"), RetainItem("Same.", external_id="a"), RetainItem("Other.")]
    results = memory.retain_many(memory.scope("generic", "ana"), items)
    assert [r.created for r in results] == [True, False, True]
    assert results[0].record.id == results[1].record.id
    assert len(memory.list_records(memory.scope("generic", "ana"))) == 2


def test_retain_many_validates_everything_before_writing(memory: Forethought) -> None:
    with pytest.raises(InvalidInput):
        memory.retain_many(memory.scope("generic", "ana"), [RetainItem("Fine."), RetainItem("")])
    assert memory.list_records(memory.scope("generic", "ana")) == []


def test_every_write_is_audited(memory: Forethought) -> None:
    record = memory.retain(memory.scope("generic", "ana"), "Ana knows SQL.", kind="skill").record
    memory.retract(memory.scope("generic", "ana"), record.id, why="she said she does not")
    events = memory.history(memory.scope("generic", "ana"), record.id).events
    assert [(e.action, e.to_status) for e in events] == [
        (Action.STATUS_CHANGED, "retracted"),
        (Action.CREATED, "active"),
    ]
    assert events[0].reason == "she said she does not"


def test_supersede_links_both_ways_and_sets_valid_time(memory: Forethought) -> None:
    old = memory.retain(
        memory.scope("generic", "ana"),
        "Ana's application to Contoso is pending.",
        kind="application",
        occurred_at="2026-01-10",
    ).record
    new = memory.supersede(
        memory.scope("generic", "ana"),
        old.handle,
        "Contoso rejected Ana's application.",
        occurred_at="2026-02-01",
        reason="rejection email",
    )
    stored_old = memory.get(memory.scope("generic", "ana"), old.id)
    assert stored_old.status is Status.SUPERSEDED
    assert stored_old.superseded_by == new.id and new.supersedes == (old.id,)
    assert stored_old.valid_to == new.occurred_at
    assert new.kind == "application"
    history = memory.history(memory.scope("generic", "ana"), old.id)
    assert [r.id for r in history.chain] == [old.id, new.id]
    with pytest.raises(InvalidTransition):
        memory.supersede(memory.scope("generic", "ana"), old.id, "A second replacement.")
    with pytest.raises(InvalidInput):
        memory.supersede(
            memory.scope("generic", "ana"), new.id, "Earlier than the record it replaces.", occurred_at="2025-01-01"
        )


def test_recall_returns_current_records_unless_told_otherwise(memory: Forethought) -> None:
    old = memory.retain(
        memory.scope("generic", "ana"), "Ana's application to Contoso is pending.", occurred_at="2026-01-10"
    ).record
    memory.supersede(
        memory.scope("generic", "ana"), old.id, "Contoso rejected Ana's application.", occurred_at="2026-02-01"
    )
    now = memory.recall(memory.scope("generic", "ana"), "Contoso application")
    assert [h.record.statement for h in now.hits] == ["Contoso rejected Ana's application."]
    then = memory.recall(memory.scope("generic", "ana"), "Contoso application", as_of="2026-01-20")
    assert [h.record.id for h in then.hits] == [old.id]
    both = memory.recall(
        memory.scope("generic", "ana"), "Contoso application", statuses=[Status.ACTIVE, Status.SUPERSEDED]
    )
    assert len(both.hits) == 2


def test_edit_makes_a_new_version_in_the_same_lineage(memory: Forethought) -> None:
    v1 = memory.retain(
        memory.scope("generic", "ana"), "Ana knows Pyhton.", kind="skill", occurred_at="2026-01-01"
    ).record
    v2 = memory.edit(memory.scope("generic", "ana"), v1.id, "Ana knows Python.")
    assert (v2.lineage_id, v2.version, v2.previous_id) == (v1.lineage_id, 2, v1.id)
    assert v2.occurred_at == v1.occurred_at  # a correction keeps the valid time
    assert memory.get(memory.scope("generic", "ana"), v1.id).status is Status.SUPERSEDED
    assert [r.id for r in memory.history(memory.scope("generic", "ana"), v2.id).chain] == [v1.id, v2.id]
    # As of any time, the corrected wording is what counts.
    hits = memory.recall(memory.scope("generic", "ana"), "Python skill", as_of="2026-06-01").hits
    assert [h.record.id for h in hits] == [v2.id]


def test_candidates_are_approved_or_rejected_never_revived(memory: Forethought) -> None:
    cand = memory.retain(
        memory.scope("generic", "ana"), "Ana wants a data role.", kind="target_role", status=Status.CANDIDATE
    ).record
    assert memory.recall(memory.scope("generic", "ana"), "data role").hits == []
    approved = memory.approve(memory.scope("generic", "ana"), cand.id)
    assert approved.status is Status.ACTIVE
    assert [h.record.id for h in memory.recall(memory.scope("generic", "ana"), "data role").hits] == [cand.id]
    other = memory.retain(memory.scope("generic", "ana"), "Ana likes Go.", status=Status.CANDIDATE).record
    memory.reject(memory.scope("generic", "ana"), other.id, reason="not what she said")
    with pytest.raises(InvalidTransition):
        memory.approve(memory.scope("generic", "ana"), other.id)


def test_recall_filters_by_kind_and_tag_and_packs_to_a_budget(memory: Forethought) -> None:
    memory.retain(
        memory.scope("generic", "p"), "Use Postgres for the ledger service.", kind="decision", tags=["db", "ledger"]
    )
    memory.retain(
        memory.scope("generic", "p"), "Postgres backups run nightly at 02:00.", kind="deployment", tags=["db"]
    )
    memory.retain(
        memory.scope("generic", "p"), "Postgres " + "very long explanation " * 60, kind="decision", tags=["db"]
    )
    assert {
        h.record.kind for h in memory.recall(memory.scope("generic", "p"), "Postgres", kinds=["decision"]).hits
    } == {"decision"}
    assert [h.record.tags for h in memory.recall(memory.scope("generic", "p"), "Postgres", tags=["ledger"]).hits] == [
        ("db", "ledger")
    ]
    small = memory.recall(memory.scope("generic", "p"), "Postgres", token_budget=30)
    assert small.tokens <= 30 and small.hits
    assert small.over_budget >= 1
    assert all(h.why and h.score > 0 for h in small.hits)


def test_recall_in_an_unknown_space_finds_nothing_and_creates_nothing(memory: Forethought) -> None:
    assert memory.recall(memory.scope("generic", "nobody"), "anything").hits == []
    assert all(s.key.subject_id != "nobody" for s in memory.store.spaces.list())


def test_unknown_ids_and_spaces_raise_not_found(memory: Forethought) -> None:
    memory.retain(memory.scope("generic", "ana"), "A fact.")
    for call in (
        lambda: memory.get(memory.scope("generic", "ana"), "zzzzzzzz"),
        lambda: memory.forget(memory.scope("generic", "ana"), "01NOPE"),
        lambda: memory.retract(memory.scope("generic", "ghost"), "x", why="y"),
        lambda: memory.history(memory.scope("generic", "ana"), "nope"),
    ):
        with pytest.raises(NotFound):
            call()


def test_space_keys_separate_workspaces_and_subject_types(memory: Forethought) -> None:
    a = memory.scope("career", "sam", workspace="w1")
    b = memory.scope("career", "sam", workspace="w2")
    assert a.key == SpaceKey(workspace="w1", subject_type="student", subject_id="sam")
    memory.retain(a, "Sam in workspace one.")
    assert memory.recall(b, "Sam workspace").hits == []
    assert len(memory.recall(a, "Sam workspace").hits) == 1


def test_retain_attaches_check_patterns_and_refuses_bad_ones(memory: Forethought) -> None:
    from forethought.domain import CheckPatterns

    record = memory.retain(
        memory.scope("generic", "p"), "Never use moment.js.", check=CheckPatterns(forbid=(r"\bmoment\b",))
    ).record
    assert memory.get(memory.scope("generic", "p"), record.id).check == CheckPatterns(forbid=(r"\bmoment\b",))
    for bad in (CheckPatterns(forbid=("(unclosed",)), CheckPatterns(require=("x" * 501,))):
        with pytest.raises(InvalidInput):
            memory.retain(memory.scope("generic", "p"), "Another rule.", check=bad)
    assert len(memory.list_records(memory.scope("generic", "p"))) == 1


def test_a_bad_subject_id_says_what_is_wrong_in_one_line(memory: Forethought) -> None:
    with pytest.raises(InvalidInput) as caught:
        memory.turn(memory.scope("career", "bad\x00id"), "hello")
    message = str(caught.value)
    assert "\n" not in message and "pydantic" not in message and "NUL" in message
