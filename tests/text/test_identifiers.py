"""Identifiers and names: exact terms, identifier parts, and the words a query is matched against."""

from __future__ import annotations

from forethought.text.identifiers import identifier_parts, identifiers, match_words, search_text, strong_terms, terms
from forethought.text.words import word_key


def test_names_are_terms_but_sentence_openers_are_not() -> None:
    assert terms("Thanks, Caroline! Yes, Melanie went to Sweden.") == ["caroline", "melanie", "sweden"]
    assert terms("What did you do?") == []


def test_match_words_holds_identifier_parts_and_stems() -> None:
    found = match_words("Melanie: we instantiate PrismaClient while camping")
    assert {"melani", "instantiat", "prismaclient", "prisma", "client", "camp"} <= found


def test_identifiers_are_the_code_like_tokens_in_order() -> None:
    text = "Use PrismaClient from lib/db, set connection_limit=1 on node18 and the API, not plain words."
    assert identifiers(text) == ["PrismaClient", "lib/db", "connection_limit", "node18", "API"]
    assert identifiers("") == [] and identifiers("just plain words here") == []


def test_identifier_parts_and_search_text_of_plain_words() -> None:
    assert identifier_parts("plain") == ["plain"]
    assert search_text("nothing code-like here") == ""


def test_word_keys_and_strong_terms() -> None:
    assert word_key("disconnecting") == word_key("disconnections") == word_key("disconnect")
    assert word_key("cookies") == word_key("cookie") and word_key("headphones") == word_key("headphone")
    found = strong_terms("Add a toggle. Then use PrismaClient from lib/db with Stripe and connection_limit=1.")
    assert found == {"prismaclient", "lib/db", "stripe", "connection_limit"}  # "Add", "Then" open sentences
