"""Filing source documents: sessions dated when they were written, proposals to the inbox, history
arriving as history, reverts withdrawing what they revert, each document filed once."""

from __future__ import annotations

from datetime import UTC, datetime

from forethought import Forethought
from forethought.domain import Role, Status, Turn
from forethought.domain.documents import DocumentStatus, ItemAction, SourceDocument, SourceItem
from forethought.pipeline.documents import doc_tag

JAN = datetime(2024, 1, 10, 9, 0, tzinfo=UTC)
JUN = datetime(2024, 6, 1, 9, 0, tzinfo=UTC)


def _doc(ref: str, text: str, *, when: datetime | None = JAN, **kw: object) -> SourceDocument:
    items = kw.pop("items", (SourceItem(quote=text, kind="decision"),))
    turns = (Turn(index=0, role=Role.USER, text=text),)
    return SourceDocument(
        ref=ref, source=ref.split(":")[0], title=ref, turns=turns, occurred_at=when, items=items, **kw
    )


def test_a_document_is_a_dated_session_whose_items_wait_in_the_inbox(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    doc = _doc("adr:0007", "We will store every amount as integer cents.")
    result = memory.file_documents(scope, [doc])
    (filed,) = result.documents
    assert filed.outcome == "filed"
    (record,) = result.records("pending")
    assert record.status is Status.CANDIDATE and record.occurred_at == JAN
    assert {"source:adr", doc_tag("adr:0007")} <= set(record.tags)
    session = memory.get_session(scope, filed.session_id or "")
    assert session.metadata["ref"] == "adr:0007" and session.created_at == JAN and session.source == "adr"
    assert record.evidence[0].quote in session.turns[0].text and record.evidence[0].session_id == session.id


def test_filing_the_same_documents_again_files_nothing(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    docs = [_doc("rules:AGENTS.md", "Never log card numbers."), _doc("adr:1", "We will deploy on Tuesdays only.")]
    memory.file_documents(scope, docs)
    again = memory.file_documents(scope, docs)
    assert [d.outcome for d in again.documents] == ["known", "known"]
    assert len(memory.list_sessions(scope)) == 2
    assert len(memory.list_records(scope, statuses=(Status.CANDIDATE,))) == 2
    # another project has not seen them
    other = memory.file_documents(memory.scope("project", "other"), docs[:1])
    assert [d.outcome for d in other.documents] == ["filed"]


def test_a_superseded_document_arrives_as_history_linked_to_its_successor(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    old = _doc("adr:1", "We will keep a database pool of 10 connections per worker.", status=DocumentStatus.SUPERSEDED,
               superseded_by=("adr:2",))  # fmt: skip
    new = _doc("adr:2", "We will pool connections with PgBouncer in transaction mode.", when=JUN, supersedes=("adr:1",))
    result = memory.file_documents(scope, [old, new])
    assert {d.ref: d.outcome for d in result.documents} == {"adr:1": "history", "adr:2": "filed"}
    (successor,) = result.records("pending")
    (history,) = next(d for d in result.documents if d.ref == "adr:1").history
    assert history.status is Status.SUPERSEDED and history.superseded_by == successor.id
    assert history.occurred_at == JAN and history.valid_to == JUN
    inbox = memory.inbox(scope).pending
    assert [r.id for r in inbox] == [successor.id]  # history never waits for review
    valid_in_march = memory.list_records(
        scope, statuses=(Status.SUPERSEDED, Status.ACTIVE), as_of="2024-03-01T00:00:00Z"
    )
    assert [r.id for r in valid_in_march] == [history.id]


def test_a_deprecated_document_arrives_retracted(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    doc = _doc("adr:3", "We will build the admin UI with jQuery.", status=DocumentStatus.DEPRECATED)
    (record,) = memory.file_documents(scope, [doc]).documents[0].history
    assert record.status is Status.RETRACTED
    assert memory.list_records(scope) == []


def test_a_proposed_document_files_proposals_not_decisions(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    doc = _doc("adr:4", "We will move search to OpenSearch.", status=DocumentStatus.PROPOSED)
    (record,) = memory.file_documents(scope, [doc]).records("pending")
    assert record.provenance.modality is not None and record.provenance.modality.value == "proposed"


def test_a_commit_message_is_read_by_the_extractor(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    text = "Never cache auth tokens in Redis because they rotate every hour.\n\nThe cache served stale tokens."
    doc = _doc("git:" + "a" * 40, text, items=(), extract=True)
    result = memory.file_documents(scope, [doc])
    statements = [r.statement for r in result.records("pending")]
    assert any("cache auth tokens" in s for s in statements)
    assert all(r.occurred_at == JAN and "source:git" in r.tags for r in result.records("pending"))


def test_a_revert_rejects_pending_candidates_and_proposes_retracting_active_ones(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    first, second = "git:" + "1" * 40, "git:" + "2" * 40
    memory.file_documents(scope, [_doc(first, "We will use UUIDv7 for every primary key.")])
    (active,) = memory.approve_all(scope)
    memory.file_documents(scope, [_doc(second, "We will use Redis for every session store.", when=JUN)])
    revert_text = 'Revert "use uuidv7"\n\nThis reverts commit 111.'

    def revert(ref: str, target: str) -> SourceDocument:
        item = SourceItem(quote="This reverts commit 111.", action=ItemAction.RETRACT, target_ref=target)
        return _doc(ref, revert_text, when=JUN, items=(item,))

    result = memory.file_documents(scope, [revert("git:" + "3" * 40, first), revert("git:" + "4" * 40, second)])
    assert [r.record.id for r in result.retractions] == [active.id]
    assert memory.get(scope, active.id).status is Status.ACTIVE  # a person confirms a retraction
    (withdrawn,) = result.reverted
    assert withdrawn.status is Status.REJECTED
    reasons = [e.reason or "" for e in memory.history(scope, withdrawn.id).events]
    assert any(r.startswith("reverted in its source by git:4444") for r in reasons)
    assert memory.inbox(scope).pending == []


def test_a_rule_that_carried_a_secret_is_refused_with_its_reason(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    text = "Always call the billing API with the key sk_live_51HqLyjWDarjtT1zdp7dcXYZabc123 in the header."
    result = memory.file_documents(scope, [_doc("rules:CLAUDE.md", text)])
    assert result.records("pending") == []
    assert [r.rule for r in result.rejected()] == ["secret"]
    session = memory.get_session(scope, result.documents[0].session_id or "")
    assert "sk_live_51HqLyjWDarjtT1zdp7dcXYZabc123" not in session.turns[0].text  # scrubbed before storage


def test_skipped_documents_are_reported_and_not_captured(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    doc = _doc("git:" + "5" * 40, "Merge branch 'main'", items=(), skipped="merge commit")
    (filed,) = memory.file_documents(scope, [doc]).documents
    assert filed.outcome == "skipped" and filed.reason == "merge commit"
    assert memory.list_sessions(scope) == []
