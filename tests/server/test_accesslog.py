"""The access log shows a request's path and parameter names, never a parameter's value."""

from __future__ import annotations

import logging
from urllib.parse import urlencode

from hypothesis import given, settings
from hypothesis import strategies as st

from forethought.server.accesslog import QueryScrubber, scrub_target

NAMES = st.from_regex(r"[a-z_]{1,12}", fullmatch=True)
VALUES = st.text(min_size=6, max_size=60).filter(lambda v: v.strip() and not v.isspace())


def test_values_are_hidden_and_names_kept() -> None:
    assert (
        scrub_target("/web/apps/project/tp/brief?task=use+sk-live&k=5&flag")
        == "/web/apps/project/tp/brief?task=***&k=***&flag"
    )
    assert scrub_target("/health") == "/health"


def test_a_secret_or_an_address_in_the_path_is_scrubbed() -> None:
    key = "ghp_" + "x8Kd2LmQ7pRt4VwZ9bNc1SfGh6JkYe3A0uTo"
    assert key not in scrub_target(f"/v1/apps/project/subjects/{key}/records")
    assert "maria" not in scrub_target("/v1/apps/support/subjects/maria%40example.com/records")


def test_a_crafted_target_cannot_forge_a_log_line() -> None:
    assert "\n" not in scrub_target("/a%0Ab?x%0A=1%0D%0Afake") and "\r" not in scrub_target("/a%0D?%0D%0A=1")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(NAMES, VALUES), min_size=1, max_size=6))
def test_no_value_of_any_query_reaches_the_log(params: list[tuple[str, str]]) -> None:
    target = "/web/apps/project/tp/memory?" + urlencode(params)
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d', ("c", "GET", target, "1.1", 200), None
    )
    assert QueryScrubber().filter(record)
    shown = record.getMessage().split(" ")[3]  # c - "GET <target> HTTP/1.1" 200
    assert shown == "/web/apps/project/tp/memory?" + "&".join(f"{name}=***" for name, _ in params)
