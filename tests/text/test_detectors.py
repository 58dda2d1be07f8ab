"""The detectors' own API: spans in order, redaction of overlaps, the folded second pass, phrases.

What each pattern set finds and spares is pinned through the validator (tests/pipeline/test_validator.py).
"""

from __future__ import annotations

import pytest

from forethought.text.detectors import (
    DEFERRED,
    TRANSIENT,
    Span,
    find_personal_data,
    find_phrase,
    find_secrets,
    redact,
    redact_all,
)

KEY = "sk-proj-4fT9xQ2LmZ8vB1nR7yK3wP6hJ0cD5sA"


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def test_spans_point_at_what_they_found_in_text_order() -> None:
    text = f"mail bob@example.com or call +33 6 12 34 56 78; key {KEY}"
    personal = find_personal_data(text)
    assert [(s.kind, text[s.start : s.end]) for s in personal] == [
        ("email", "bob@example.com"),
        ("phone", "+33 6 12 34 56 78"),
    ]
    assert [(s.kind, s.category, text[s.start : s.end]) for s in find_secrets(text)] == [("api_key", "secret", KEY)]


def test_placeholders_name_the_kind() -> None:
    assert Span(0, 1, "api_key", "secret").replacement == "[REDACTED:api_key]"
    assert Span(0, 1, "email", "personal_data").replacement == "[email]"


def test_overlapping_spans_are_redacted_once_under_the_first_placeholder() -> None:
    spans = [Span(6, 12, "email", "personal_data"), Span(2, 8, "token", "secret")]
    assert redact("0123456789abcdef", spans) == "01[REDACTED:token]cdef"
    assert redact("nothing here", []) == "nothing here"


def test_redact_all_catches_a_secret_written_in_full_width_letters() -> None:
    text = f"the key is {_full_width(KEY)}"
    assert find_secrets(text) == []  # as written, no pattern sees it
    redacted, spans = redact_all(text, find_secrets)
    assert redacted == "the key is [REDACTED:api_key]" and [s.kind for s in spans] == ["api_key"]
    assert redact_all("plain words", find_secrets) == ("plain words", [])


def test_find_phrase_reads_folded_case_folded_text_with_spaces_collapsed() -> None:
    assert find_phrase(DEFERRED, "We might add dark mode.") == "we might"
    assert find_phrase(TRANSIENT, "I’m on my laptop today") == "my laptop"


def _token(n: int, seed: int = 7) -> str:
    """A random-looking body of `n` letters and digits, generated here (no real key is committed)."""
    import random

    rng = random.Random(seed)
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
    body = "".join(rng.choice(alphabet) for _ in range(n - 3))
    return body + "aZ7"  # always mixed case with a digit


@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        ("glpat-" + _token(20), "api_key"),
        ("npm_" + _token(36), "api_key"),
        ("hf_" + _token(34), "api_key"),
        ("SG." + _token(22) + "." + _token(43, 3), "api_key"),
        ("pypi-" + _token(60), "api_key"),
        ("AAAA" + _token(7) + ":APA91b" + _token(40, 5), "api_key"),
    ],
)
def test_other_issuers_token_shapes_are_secrets(secret: str, kind: str) -> None:
    text = f"for the release job use {secret} please"
    [span] = find_secrets(text)
    assert (text[span.start : span.end], span.kind) == (secret, kind)


def test_webhook_urls_and_basic_credentials_keep_their_shape_and_lose_their_secret() -> None:
    slack = "https://hooks.slack.com/services/T" + _token(9) + "/B" + _token(9, 2) + "/" + _token(24, 3)
    discord = "https://discord.com/api/webhooks/123456789012345678/" + _token(40)
    basic = "Authorization: Basic " + _token(24) + "=="
    redacted, _ = redact_all(f"{slack} {discord} {basic}", find_secrets)
    assert redacted == ("https://hooks.slack.com/services/[REDACTED:token] https://discord.com/api/webhooks/"
                        "[REDACTED:token] Authorization: Basic [REDACTED:token]")  # fmt: skip


def test_a_key_named_by_what_it_opens_is_a_secret_and_a_primary_key_is_not() -> None:
    key = "AAAA" + _token(12) + "-" + _token(20, 4)
    assert [s.kind for s in find_secrets(f"the server key is {key}, put it in the app config")] == ["api_key"]
    assert find_secrets("the primary key is customer_id and the sort key is created_at") == []
    assert find_secrets("the key is the commit 3f05b8024231cfe70e8e6d183666e7988f0765c5") == []


def test_a_credential_named_for_what_it_opens_is_a_secret() -> None:
    value = "dev_tok_" + _token(24)
    text = f"the relay token for gate-7 is {value}, keep it in the env var"
    assert [text[s.start : s.end] for s in find_secrets(text)] == [value]
    assert find_secrets("the token for the build is stored in the CI secret store and rotated monthly") == []
