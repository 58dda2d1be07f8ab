"""The write chokepoint: secrets never bound, JSON kept JSON, ids and hashes untouched, idempotent."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from forethought.domain import new_id
from forethought.domain.keys import new_key
from forethought.store.scrub import scrub_params, scrub_text

TOKEN = "ghp_" + "Ab3" * 12


def test_a_secret_in_any_text_parameter_is_replaced_and_other_values_pass() -> None:
    blob = b"\x00\x01vector"
    out = scrub_params((f"title {TOKEN}", 3, 0.5, None, blob))
    assert out == ("title [REDACTED:api_key]", 3, 0.5, None, blob)
    assert scrub_params({"name": f"key {TOKEN}"}) == {"name": "key [REDACTED:api_key]"}


def test_ids_hashes_and_times_are_not_secrets() -> None:
    values = [new_id(), hashlib.sha256(b"x").hexdigest(), "2026-12-01T22:27:20.123456+00:00", "a1b2c3d4" * 5]
    assert list(scrub_params(values)) == values


def test_json_stays_json_and_a_member_named_for_a_secret_is_redacted() -> None:
    doc = json.dumps({"note": f"use {TOKEN}", "password": "hunter2x", "nested": [{"api_key": "k9" * 10}], "n": 3})
    clean = json.loads(scrub_text(doc))
    assert clean == {
        "note": "use [REDACTED:api_key]",
        "password": "[REDACTED:password]",
        "nested": [{"api_key": "[REDACTED:api_key]"}],
        "n": 3,
    }
    untouched = json.dumps({"area": "billing", "count": 2})
    assert scrub_text(untouched) is untouched


def test_this_projects_own_api_keys_are_secrets() -> None:
    assert scrub_text(f"my key is {new_key()[1]} ok") == "my key is [REDACTED:api_key] ok"


_SECRET = st.sampled_from([TOKEN, "sk-proj-" + "x7" * 15, "glpat-" + "Zz9" * 8, new_key()[1], "api_key=Qw3" + "e" * 20])
_WORDS = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)


@given(before=_WORDS, secret=_SECRET, after=_WORDS, glue=st.sampled_from([" ", "-", "_", "\n", "/"]))
def test_scrubbing_removes_the_secret_and_is_idempotent(before: str, secret: str, after: str, glue: str) -> None:
    text = f"{before} x{glue}{secret} {after}"
    once = scrub_text(text)
    assert secret not in once
    assert scrub_text(once) == once  # a value matched on (an FTS delete) binds exactly as it was stored


@given(st.recursive(st.none() | st.integers() | st.text(max_size=20), lambda c: st.lists(c, max_size=3)
                    | st.dictionaries(st.text(max_size=10), c, max_size=3), max_leaves=10))  # fmt: skip
def test_any_json_document_stays_the_same_document_when_it_holds_no_secret(doc: object) -> None:
    encoded = json.dumps(doc)
    assert json.loads(scrub_text(encoded)) == doc
