"""Query analysis: keywords, identifiers, names, stems and the dates a query names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from forethought.recall.dates import Period, periods, read_periods
from forethought.recall.query import analyze
from forethought.text.identifiers import focus_in, identifier_parts, match_words, search_text


def test_identifiers_are_kept_whole_as_terms_and_split_for_the_keyword_index() -> None:
    q = analyze("Where is PrismaClient created, and who sends X-ApexCart-CSRF?")
    assert "prismaclient" in q.terms and "x-apexcart-csrf" in q.terms
    assert {"prismaclient", "prisma", "client", "apex", "cart", "csrf"} <= set(q.keywords)
    assert identifier_parts("X-ApexCart-CSRF") == ["x", "apex", "cart", "csrf"]
    assert identifier_parts("prisma_client.v2") == ["prisma", "client", "v", "2"]
    assert search_text("We call PrismaClient here") == "prisma client"


def test_stopwords_and_single_letters_are_not_keywords_but_numbers_are() -> None:
    q = analyze("What did they say about the 3 incidents in a week?")
    assert q.keywords == ("say", "3", "incidents", "week")


def test_query_syntax_characters_do_not_survive_into_keywords() -> None:
    q = analyze('NEAR(a b) OR "x" AND col:value*')
    assert all(k.isalnum() for k in q.keywords)
    assert analyze("the of and").keywords == ()


@pytest.mark.parametrize(
    "text",
    [
        "Melanie: We went camping at the beach, and the kids loved camping!",
        "The agencies said our adoption agency was fine.",
        "We instantiate PrismaClient once; prisma_client.v2 is gone. X-ApexCart-CSRF too.",
        "Painting, painted, paints: 4127 art articles started (artist).",
        "Café naïve résumé — running, hiking; hiked!",
        "",
    ],
)
def test_focus_in_agrees_with_matching_every_word(text: str) -> None:
    queries = [
        "camping beach kids",
        "agency adoption",
        "prisma client PrismaClient csrf apex",
        "paint art start 4127",
        "run hike café",
    ]
    for query in queries:
        focus = analyze(query).focus
        assert focus_in(focus, text) == match_words(text) & focus
    assert focus_in(analyze("agency camping").focus, "Agencies went CAMPING") == {"agency", "camp"}
    assert focus_in(frozenset(), "anything") == set()


def test_focus_is_the_stemmed_keywords_outside_the_dates() -> None:
    q = analyze("What paintings did Melanie show on October 13, 2023 about incident 4127?")
    assert q.periods == (Period(2023, 10, 13),)
    assert q.focus == frozenset({"paint", "melani", "show", "incident", "4127"})
    assert "13" in q.keywords and "2023" in q.keywords  # the keyword search still sees them


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("on October 13, 2023", [Period(2023, 10, 13)]),
        ("on 1 February, 2023", [Period(2023, 2, 1)]),
        ("on 8th December, 2023", [Period(2023, 12, 8)]),
        ("on December 1,2023", [Period(2023, 12, 1)]),
        ("deployed 2024-03-05 at 10:30", [Period(2024, 3, 5)]),
        ("Sept. 3, 2021", [Period(2021, 9, 3)]),
        ("in December 2023", [Period(2023, 12)]),
        ("march 2024 release", [Period(2024, 3)]),
        ("in 2023", [Period(2023)]),
        ("camping in June", [Period(None, 6)]),
        ("In June we moved", [Period(None, 6)]),
        ("visited in May", [Period(None, 5)]),
        ("between August 11 and August 15 2023", [Period(None, 8, 11), Period(2023, 8, 15)]),
        ("on 29 Feb", [Period(None, 2, 29)]),
    ],
)
def test_periods_reads_calendar_dates(query: str, expected: list[Period]) -> None:
    assert periods(query) == expected


@pytest.mark.parametrize(
    "query",
    [
        "what may happen in may?",
        "version 2 may break the build",
        "we march on",
        "the Q3 roadmap",
        "incident 4127 on 31 February 2023",
        "port 2023 is open",
        "what did we decide last week?",
        "the change was reviewed by Jan",
    ],
)
def test_periods_ignores_what_is_not_a_date(query: str) -> None:
    assert periods(query) == []


def test_read_periods_blanks_the_dates_it_read() -> None:
    found, rest = read_periods("lunch on 13 October 2023 with Ana")
    assert found == [Period(2023, 10, 13)]
    assert rest.split() == ["lunch", "on", "with", "Ana"]


def test_period_windows_and_membership() -> None:
    day = Period(2023, 10, 13)
    assert day.window() == (datetime(2023, 10, 12, tzinfo=UTC), datetime(2023, 10, 15, tzinfo=UTC))
    assert day.contains(datetime(2023, 10, 13, 18, 30, tzinfo=UTC))
    assert not day.contains(datetime(2023, 10, 16, tzinfo=UTC))
    december = Period(2023, 12)
    assert december.window() == (datetime(2023, 12, 1, tzinfo=UTC), datetime(2024, 1, 1, tzinfo=UTC))
    june_any_year = Period(None, 6)
    assert june_any_year.window() is None
    assert june_any_year.contains(datetime(2019, 6, 30, tzinfo=UTC))
    assert not june_any_year.contains(datetime(2019, 7, 1, tzinfo=UTC))
    assert Period(2023).contains(datetime(2023, 12, 31, 23, 59, tzinfo=UTC))
