"""Words: tokens, the two stemmers, salient words and word lists."""

from __future__ import annotations

import pytest

from forethought.text.words import GENERIC_WORDS, STOPWORDS, salient_words, stem, vocabulary, word_key, word_keys, words


@pytest.mark.parametrize(
    ("words", "root"),
    [
        (["paint", "paints", "painted", "painting"], "paint"),
        (["hike", "hikes", "hiking", "hiked"], "hik"),
        (["camp", "camps", "camping", "camped"], "camp"),
        (["run", "running", "runs"], "run"),
        (["agency", "agencies"], "agency"),
        (["class", "classes"], "class"),
    ],
)
def test_stem_maps_inflections_to_one_root(words: list[str], root: str) -> None:
    assert {stem(w) for w in words} == {root}


def test_stem_leaves_short_words_numbers_and_s_endings_that_are_not_plurals() -> None:
    assert [stem(w) for w in ["is", "bus", "status", "this", "2023", "falling", "passing"]] == [
        "is",
        "bus",
        "status",
        "this",
        "2023",
        "fall",
        "pass",
    ]


def test_words_are_lower_cased_runs_of_letters_and_digits() -> None:
    assert words("Café naïve: prisma_client v2, DON'T!") == ["café", "naïve", "prisma", "client", "v2", "don", "t"]
    assert words("") == [] and words("--- ...") == []


def test_the_two_stemmers_differ_where_they_were_measured_apart() -> None:
    assert stem("agencies") == "agency" and word_key("agencies") == "agenci"
    assert stem("stopped") == "stop" and word_key("stopped") == "stop"


def test_word_keys_of_a_word_list() -> None:
    assert word_keys("cookies cookie  headphones\nstopped") == frozenset({"cooki", "headphon", "stop"})
    assert {"add", "fix", "check"} <= GENERIC_WORDS and "stripe" not in GENERIC_WORDS


def test_salient_words_leave_out_stopwords_generic_words_numbers_and_short_words() -> None:
    found = salient_words("Please fix the Stripe webhooks in 2 of 3 routes; the webhook retries, ok?")
    assert found == {"strip": "stripe", "webhook": "webhooks", "rout": "routes", "retri": "retries"}
    assert not found.keys() & GENERIC_WORDS and not set(found.values()) & STOPWORDS
    assert salient_words("") == {}


def test_vocabulary_is_a_word_list_written_as_text() -> None:
    assert vocabulary("  Go C\n R  Go ") == frozenset({"Go", "C", "R"})
    assert vocabulary("") == frozenset()
