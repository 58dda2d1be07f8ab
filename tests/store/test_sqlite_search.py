"""The SQLite store's bounded keyword and term searches (backend-specific behaviour)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from forethought import Forethought, RetainItem
from forethought.embed.hashing import HashingEmbedder
from forethought.store.base import RecordFilter
from forethought.store.sqlite import search


@pytest.fixture
def filled(tmp_path: Path) -> Iterator[Forethought]:
    with Forethought.open(tmp_path / "s.db", embedder=HashingEmbedder()) as memory:
        items = [RetainItem(f"Alice restarted the router on day {i}.") for i in range(40)]
        items += [
            RetainItem("Alice restarted the Kafka broker after the outage."),
            RetainItem("Kafka lag alarms fired."),
        ]
        memory.retain_many(memory.scope("generic", "s"), items)
        yield memory


def test_with_common_words_the_record_holding_every_word_comes_first(
    filled: Forethought, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = filled.space(filled.scope("generic", "s")).id
    monkeypatch.setattr(search, "POSTINGS_BUDGET", 5)  # make "alice" and "restarted" too common to score
    bounded = filled.store.search.keyword(sid, ["alice", "restarted", "kafka"], RecordFilter(), 5)
    statements = [r.statement for r in filled.store.records.get_many(sid, [h.record_id for h in bounded])]
    assert statements[0] == "Alice restarted the Kafka broker after the outage."  # the AND phase
    assert "Kafka lag alarms fired." in statements  # the rare word's OR phase


def test_words_are_never_read_as_query_syntax(filled: Forethought) -> None:
    sid = filled.space(filled.scope("generic", "s")).id
    for words in (["NEAR(a b)"], ['"'], ["col:value*"], ["AND", "OR", "NOT"], ["kafka)"], ["^kafka"]):
        filled.store.search.keyword(sid, words, RecordFilter(), 5)  # must not raise


def test_terms_held_by_too_many_records_are_not_searched(filled: Forethought, monkeypatch: pytest.MonkeyPatch) -> None:
    sid = filled.space(filled.scope("generic", "s")).id
    assert filled.store.search.terms(sid, ["alice"], RecordFilter(), 5)
    monkeypatch.setattr(search, "TERM_FREQUENCY_CAP", 10)
    assert filled.store.search.terms(sid, ["alice"], RecordFilter(), 5) == []
    assert len(filled.store.search.terms(sid, ["kafka", "alice"], RecordFilter(), 5)) == 2
