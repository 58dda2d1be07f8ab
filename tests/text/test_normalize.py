"""Normalisation and quote matching: what copying text between chat, model and form may change."""

from __future__ import annotations

import pytest

from forethought.text.normalize import find_quote, fold, normalize, quote_in, related_clauses, similarity


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("“Smart” ‘quotes’ „low‟ ″x″", '"smart" \'quotes\' "low" "x"'),
        ("It’s a ‛test′", "it's a 'test'"),
        ("2019–2023 — done ‐ ‑ ‒ ― −", "2019-2023 - done - - - - -"),
        ("wait… what", "wait... what"),
        ("**bold** and __strong__ and `code` and ``more``", "bold and strong and code and more"),
        ("see [the docs](https://example.com/x) and ![logo](a.png)", "see the docs and logo"),
        ("# Heading\n## Sub\n> quoted\n> > nested", "heading sub quoted nested"),
        ("- one\n* two\n+ three\n• four\n1. five\n2) six", "one two three four five six"),
        ("ＦＵＬＬ－ｗｉｄｔｈ　１２３", "full-width 123"),  # NFKC, full-width space too
        ("ﬁne ligature", "fine ligature"),
        ("zero\u200bwidth\u00adsoft\ufeffbom", "zerowidthsoftbom"),
        ("  many \t spaces\n\nand\r\nlines  ", "many spaces and lines"),
        ("STRASSE Straße", "strasse strasse"),  # case folding, not just lower()
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


def test_normalize_is_idempotent_on_examples() -> None:
    for text in ["“A” — **b** [c](d)\n- e …", "ＡＢＣ `x`", "> # hi"]:
        assert normalize(normalize(text)) == normalize(text)


def test_fold_keeps_case_layout_and_markdown() -> None:
    assert fold("**Ｋｅｙ**: “x” —\n- y") == '**Key**: "x" -\n- y'


def test_a_hyphen_inside_text_is_not_a_bullet() -> None:
    assert normalize("x - y") == "x - y"
    assert normalize("a\n-1 degrees") == "a -1 degrees"  # no space after "-": not a list marker


@pytest.mark.parametrize(
    ("quote", "turn"),
    [
        ("I don’t want to relocate – my partner works in Lyon", "I don't want to relocate — my partner works in Lyon."),
        ("Use the ruff formatter", "Use the `ruff` formatter with line length 120."),
        ("Kubernetes operations", "My skills:\n- **Kubernetes** operations"),
        ("read the docs", "Please read [the docs](https://x.y/z) first"),
        ("I PREFER TEA.", "i prefer tea!"),  # case and edge punctuation
        ("ＡＰＩ handlers", "All API handlers must return problem+json"),
        ("Java", "I know Java, and some Go."),
    ],
)
def test_quotes_that_match(quote: str, turn: str) -> None:
    assert quote_in(normalize(quote), normalize(turn))


@pytest.mark.parametrize(
    ("quote", "turn"),
    [
        ("Java", "I worked on Javascript tooling"),  # a short quote must sit on word boundaries
        ("ava", "I know Java"),
        ("sk", "the task-runner"),
        ("I know SQL. And Spark.", "I know SQL."),  # spans two turns: not in one
        ("We chose RQ over Celery", "We chose Celery over RQ because we need chords."),
        ("", "anything"),
        (" . ", "anything . at all"),  # only punctuation: nothing to match
    ],
)
def test_quotes_that_do_not_match(quote: str, turn: str) -> None:
    assert not quote_in(normalize(quote), normalize(turn))


def test_a_quote_of_three_words_or_more_may_start_inside_a_word() -> None:
    # an extractor that cut a word at the edge of a long quote still points at the right turn
    assert quote_in(normalize("ing the build every Monday"), normalize("We are cutting the build every Monday."))


def test_find_quote_prefers_the_turn_named_then_goes_in_order() -> None:
    turns = [normalize(t) for t in ["We use Postgres.", "Yes, we use Postgres.", "Other"]]
    assert find_quote("we use postgres", turns) == 0
    assert find_quote("we use postgres", turns, prefer=1) == 1
    assert find_quote("we use postgres", turns, prefer=2) == 0  # the named turn does not hold it
    assert find_quote("we use postgres", turns, prefer=99) == 0  # out of range: ignored
    assert find_quote("MySQL", turns) is None


def test_similarity_is_token_jaccard() -> None:
    assert similarity("We deploy on Tuesdays.", "we DEPLOY on tuesdays") == 1.0
    assert similarity("a b c d", "a b c e") == pytest.approx(3 / 5)
    assert similarity("", "") == 0.0
    assert similarity("...", "!!!") == 0.0


def test_related_clauses_are_those_sharing_a_content_word() -> None:
    quotes = ["We use Postgres; maybe later we look at CockroachDB.", "For now we pin pnpm."]
    assert related_clauses("The team uses Postgres", quotes) == ["We use Postgres"]
    assert related_clauses("pnpm is pinned", quotes) == ["For now we pin pnpm"]
    assert related_clauses("Unrelated", quotes) == []
