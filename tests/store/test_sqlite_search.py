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


def test_a_selective_filter_is_searched_exactly_and_finds_what_widening_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = HashingEmbedder()
    with Forethought.open(tmp_path / "v.db", embedder=embedder) as memory:
        scope = memory.scope("generic", "s")
        items = [RetainItem(f"The router on floor {i} was restarted by the night shift.") for i in range(150)]
        items += [RetainItem(f"Decision {i}: the router firmware stays pinned.", kind="fact") for i in range(3)]
        memory.retain_many(scope, items)
        sid = memory.space(scope).id
        query = embedder.embed_one("router restarted on a floor")
        rare = RecordFilter(kinds=("fact",))
        calls: list[int] = []
        real = search._exact
        monkeypatch.setattr(search, "_exact", lambda *a: calls.append(1) or real(*a))
        exact = memory.store.search.vector(sid, query, rare, 5)
        assert calls  # the first pass found too few facts among its neighbours, and 3 records pass
        monkeypatch.setattr(search, "EXACT_FILTERED", 0)  # the index widened until the whole space
        widened = memory.store.search.vector(sid, query, rare, 5)
        assert len(calls) == 1
    assert [h.record_id for h in exact] == [h.record_id for h in widened] and len(exact) == 3
    assert [round(h.score, 3) for h in exact] == [round(h.score, 3) for h in widened]
