"""The vectors a store keeps per record (`SearchIndex.record_vectors`), on every backend: the
statement's and the first evidence quote's, read back by id, within the space, gone with the record."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from forethought.domain import Evidence, SpaceKey, Status
from forethought.domain.times import utcnow
from forethought.embed.base import Vectors
from forethought.embed.hashing import HashingEmbedder
from forethought.errors import ModelUnavailable
from forethought.memory.outbox import drain
from forethought.memory.writing import Draft, index_records, new_record
from forethought.store.base import ChangeSet, Store
from forethought.store.sqlite import SQLiteStore
from forethought.store.types import quote_digest

EMBED = HashingEmbedder()
QUOTE = "we agreed in the call that invoices are rounded per line, never on the total"
STATEMENT = "Invoices are rounded per line, not on the total."


def _space(store: Store, name: str) -> str:
    return store.spaces.resolve(SpaceKey(workspace="w", subject_type="project", subject_id=name)).id


def _retain(store: Store, space_id: str, statement: str, quote: str | None) -> str:
    evidence = (Evidence(quote=quote, session_id="s1", turn_index=0),) if quote else ()
    record = new_record(space_id, Draft(kind="decision", statement=statement, evidence=evidence),
                        occurred_at=utcnow(), now=utcnow(), status=Status.ACTIVE)  # fmt: skip
    store.records.apply(ChangeSet(space_id, inserts=index_records([record], EMBED)))
    return record.id


def test_a_record_keeps_its_statement_and_quote_vectors_for_the_brief(store: Store) -> None:
    s = _space(store, "billing")
    rid = _retain(store, s, STATEMENT, QUOTE)
    kept = store.search.record_vectors(s, [rid])[rid]
    assert kept.statement is not None and kept.evidence is not None
    # float16 on disk: close to what the embedder made, not bit for bit
    np.testing.assert_allclose(kept.statement, EMBED.embed_one(STATEMENT), atol=2e-3)
    np.testing.assert_allclose(kept.evidence, EMBED.embed_one(QUOTE), atol=2e-3)
    assert kept.evidence_digest == quote_digest(QUOTE)
    assert kept.evidence_of(QUOTE) is kept.evidence
    assert kept.evidence_of(QUOTE + " (edited)") is None  # a vector of another quote is never used


def test_a_quote_that_is_the_statement_shares_its_vector_and_stores_none(store: Store) -> None:
    s = _space(store, "billing")
    same, bare = _retain(store, s, STATEMENT, STATEMENT), _retain(store, s, "No quote at all here.", None)
    kept = store.search.record_vectors(s, [same, bare, "rec_unknown"])
    assert set(kept) == {same, bare}
    assert all(v.statement is not None and v.evidence is None for v in kept.values())


def test_vectors_never_cross_spaces_and_go_with_the_record(store: Store) -> None:
    a, b = _space(store, "a"), _space(store, "b")
    rid = _retain(store, a, STATEMENT, QUOTE)
    assert store.search.record_vectors(b, [rid]) == {}
    record = store.records.get(a, rid)
    store.records.forget(a, record.lineage_id, actor="test")
    assert store.search.record_vectors(a, [rid]) == {}


def test_forgetting_a_record_leaves_no_evidence_vector_row(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    try:
        s = _space(store, "billing")
        rid = _retain(store, s, STATEMENT, QUOTE)
        store.records.forget(s, store.records.get(s, rid).lineage_id, actor="test")
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "s.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM evidence_vectors").fetchone()[0] == 0


class _Down(HashingEmbedder):
    def embed(self, texts: Sequence[str]) -> Vectors:
        raise ModelUnavailable("the model is down (test)")


def test_the_outbox_pays_the_quote_vector_too(store: Store) -> None:
    s = _space(store, "billing")
    evidence = (Evidence(quote=QUOTE, session_id="s1", turn_index=0),)
    owed = new_record(s, Draft(kind="decision", statement=STATEMENT, evidence=evidence),
                      occurred_at=utcnow(), now=utcnow(), status=Status.ACTIVE)  # fmt: skip
    plain = new_record(s, Draft(kind="decision", statement="Refunds go through the ledger."),
                       occurred_at=utcnow(), now=utcnow(), status=Status.ACTIVE)  # fmt: skip
    store.records.apply(ChangeSet(s, inserts=index_records([owed, plain], _Down())))
    assert store.search.record_vectors(s, [owed.id, plain.id]) == {}  # both owed
    assert drain(store, EMBED).done == 2
    kept = store.search.record_vectors(s, [owed.id, plain.id])
    assert kept[owed.id].evidence_of(QUOTE) is not None and kept[plain.id].evidence is None
    np.testing.assert_allclose(kept[owed.id].evidence_of(QUOTE), EMBED.embed_one(QUOTE), atol=2e-3)
    np.testing.assert_allclose(kept[plain.id].statement, EMBED.embed_one("Refunds go through the ledger."), atol=2e-3)
