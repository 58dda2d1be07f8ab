"""Duplicate merging at the size of the largest transcript the API takes (5,000 turns): the indexed
merge gives what comparing every pair gives, and normalises each text a bounded number of times
(it used to compare every pair and re-normalise every quote on every fold: a 5,000-message import
pinned a server thread for minutes)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forethought.domain import Evidence, Role, Session, Turn
from forethought.domain.candidates import Candidate
from forethought.pipeline import validator
from forethought.pipeline.validator import DUPLICATE_JACCARD, validate
from forethought.text.normalize import normalize, similarity
from tests.pipeline.test_validator import _App

WORDS = ["tea", "coffee", "api", "deploy", "tuesday", "postgres", "ledger", "remote", "email", "the", "we", "use"]


def _session(texts: list[str]) -> Session:
    turns = tuple(Turn(index=i, role=Role.USER, text=t) for i, t in enumerate(texts))
    return Session(id="s-1", space_id="sp", title="t", created_at=datetime(2024, 1, 1, tzinfo=UTC), turns=turns)


def _naive(accepted: list[Candidate]) -> list[tuple[str, str, list[str]]]:
    """Every pair compared, as the rule is stated: (kind, statement, quotes) of what is kept."""
    kept: list[tuple[str, str, list[str]]] = []
    for c in accepted:
        same = (
            i
            for i, (kind, statement, _) in enumerate(kept)
            if kind == c.kind
            and (
                normalize(statement) == normalize(c.statement)
                or similarity(statement, c.statement) >= DUPLICATE_JACCARD
            )
        )
        if (i := next(same, None)) is None:
            kept.append((c.kind, c.statement, [e.quote for e in c.evidence]))
        else:
            quotes = kept[i][2]
            quotes += [q for q in (e.quote for e in c.evidence) if q not in quotes]
    return kept


_statement = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(lambda ws: "We note " + " ".join(ws))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["note", "decision"]), _statement), max_size=25))
def test_the_indexed_merge_keeps_what_comparing_every_pair_keeps(items: list[tuple[str, str]]) -> None:
    texts = [statement for _, statement in items]
    candidates = [Candidate(kind=k, statement=s, evidence=[Evidence(quote=s)]) for k, s in items]
    accepted = validate(candidates, _session(texts), _App()).validated.accepted
    expected = _naive(candidates)
    got = [(c.kind, c.statement, [e.quote for e in c.evidence]) for c in accepted]
    assert got == expected


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real: Callable[[str], str] = normalize

    def counted(text: str) -> str:
        calls[0] += 1
        return real(text)

    monkeypatch.setattr(validator, "normalize", counted)
    return calls


@pytest.mark.parametrize("same", [True, False], ids=["one-fact-5000-times", "5000-facts"])
def test_merging_5000_candidates_normalises_each_text_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch, same: bool
) -> None:
    texts = ["I prefer tea." if same else f"I prefer tea number {i} with item{i}." for i in range(5000)]
    candidates = [
        Candidate(kind="note", statement=t, evidence=[Evidence(quote=t, turn_index=i)]) for i, t in enumerate(texts)
    ]
    context = validator._Context(session=_session(texts), app=_App(), texts=())
    calls = _counting(monkeypatch)
    kept = validator._merge_duplicates(candidates, context)
    assert len(kept) == (1 if same else 5000)
    assert calls[0] <= 2 * len(candidates)  # the statement and the quote, once each
    if same:
        assert len(kept[0].evidence) == 5000
