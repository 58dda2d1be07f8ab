"""The one sentence splitter: where sentences end, offsets, verbatim slices, and its callers."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from forethought.apps.generic import APP as GENERIC
from forethought.apps.project.text import sentences as project_sentences
from forethought.domain import Role, Session, Turn
from forethought.text.sentences import Sentence, sentences, split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We deploy with Node.js 3.5 on Fridays. Tests run first.",
            ["We deploy with Node.js 3.5 on Fridays.", "Tests run first."],
        ),
        ("See the docs, e.g.: the README", ["See the docs, e.g.: the README"]),
        ("wait...what", ["wait...what"]),
        ("Really?! Yes.", ["Really?!", "Yes."]),
        ("first line\nsecond line", ["first line", "second line"]),
        ("Done.\n\n  Next step", ["Done.", "Next step"]),
        ("no punctuation at all", ["no punctuation at all"]),
        ("It broke. then it worked", ["It broke.", "then it worked"]),
        ("Hi!!", ["Hi!!"]),
        ("end with a stop.", ["end with a stop."]),
        ("  padded  \t", ["padded"]),
        ("a.\tb", ["a.", "b"]),
        ("a.\u00a0b", ["a.", "b"]),  # a non-breaking space is whitespace too
        ("windows\r\nline endings\r\n", ["windows", "line endings"]),
    ],
)
def test_where_sentences_end(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize("text", ["", " ", "\n\n", " \t\n \u00a0"])
def test_empty_or_blank_input_has_no_sentences(text: str) -> None:
    assert split_sentences(text) == []
    assert sentences(text) == []


def test_offsets_point_at_the_sentence_in_the_input() -> None:
    text = "  Use Node.js.\nThen stop!  Trailing words"
    assert split_sentences(text) == [
        Sentence("Use Node.js.", 2, 14),
        Sentence("Then stop!", 15, 25),
        Sentence("Trailing words", 27, 41),
    ]


def test_every_sentence_is_a_trimmed_verbatim_slice_in_order() -> None:
    rnd = random.Random(5)
    alphabet = "ab A.!?\n\t\u00a0,:;-"
    for _ in range(5000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 30)))
        found = split_sentences(text)
        position = 0
        for sentence in found:
            assert text[sentence.start : sentence.end] == sentence.text
            assert sentence.text and sentence.text == sentence.text.strip()
            assert sentence.start >= position
            position = sentence.end
        # Nothing but whitespace and boundaries falls between sentences: no word is lost.
        kept = "".join(s.text for s in found)
        assert "".join(text.split()) == "".join(kept.split())


def test_very_long_input_without_punctuation_is_one_pass() -> None:
    words = "word " * 200_000
    assert sentences(words) == [words.strip()]
    # A long run of stops inside a word is read once, not retried at every position.
    dots = "a" + "." * 200_000 + "b"
    assert sentences(dots) == [dots]
    lines = "line\n" * 50_000
    assert len(split_sentences(lines)) == 50_000


def test_the_generic_app_keeps_dotted_words_whole() -> None:
    turn = Turn(index=0, role=Role.USER, text="Remember that we build with Node.js 3.5 here. I prefer tea!!")
    session = Session(id="s1", space_id="sp", title="t", created_at=datetime(2025, 3, 1, tzinfo=UTC), turns=(turn,))
    found = GENERIC.extract(session)
    assert [c.statement for c in found] == ["We build with Node.js 3.5 here.", "I prefer tea."]
    assert [c.evidence[0].quote for c in found] == ["Remember that we build with Node.js 3.5 here.", "I prefer tea!!"]


def test_coding_turns_end_a_sentence_only_before_a_capital_and_not_after_an_abbreviation() -> None:
    text = "- Use a cache, e.g. Redis. It is fast. then restart it\n```\nnot. Prose\n```\nLast one."
    assert list(project_sentences(text)) == ["Use a cache, e.g. Redis.", "It is fast. then restart it", "Last one."]
