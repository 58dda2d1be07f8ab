"""Transcripts in the formats agents and chat tools write, and capture's redaction."""

from __future__ import annotations

import json

import pytest

from forethought import Forethought, InvalidInput
from forethought.domain import Role
from forethought.pipeline.capture import scrub
from forethought.pipeline.transcripts import parse_transcript
from forethought.plugins import registry


def test_text_with_role_labels_and_continuation_lines() -> None:
    turns = parse_transcript("User: first line\nsecond line\nNote: not a speaker\nAssistant: reply\n")
    assert [(t.role, t.text) for t in turns] == [
        (Role.USER, "first line\nsecond line\nNote: not a speaker"),
        (Role.AGENT, "reply"),
    ]


def test_named_speakers_are_kept() -> None:
    turns = parse_transcript("Caroline: hi\nMelanie: hello\nCaroline: how are you?\nMelanie: fine\n")
    assert [t.speaker for t in turns] == ["Caroline", "Melanie", "Caroline", "Melanie"]


def test_json_lists_message_objects_and_agent_logs() -> None:
    as_list = json.dumps([{"role": "user", "content": "a"}, {"role": "assistant", "content": [{"text": "b"}]}])
    assert [(t.role, t.text) for t in parse_transcript(as_list)] == [(Role.USER, "a"), (Role.AGENT, "b")]
    wrapped = json.dumps({"messages": [{"role": "user", "content": "c"}]})
    assert parse_transcript(wrapped)[0].text == "c"
    log = "\n".join(
        json.dumps(x)
        for x in [
            {"type": "user", "message": {"role": "user", "content": "fix the build"}},
            {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "done"}]}},
        ]
    )
    assert [(t.role, t.text) for t in parse_transcript(log)] == [(Role.USER, "fix the build"), (Role.AGENT, "done")]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "no turns"),
        (b"\xff\xfe", "UTF-8"),
        (b"User: a\x00b", "NUL"),
        (b'[{"role": "user"', "not JSON"),
        (b"[1, 2]", "object"),
        (b"x" * (2 * 1024 * 1024 + 1), "limit"),
    ],
)
def test_bad_transcripts_are_refused(data: bytes, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_transcript(data)


def test_secrets_never_reach_the_stored_session(memory: Forethought) -> None:
    transcript = (
        "User: the deploy key is sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234 and db is postgres://app:s3cret@db/prod\n"
        "User: card 4111 1111 1111 1111, mail me at ana@example.com\n"
    )
    result = memory.submit_session(memory.scope("generic", "ana"), transcript, title="secrets")
    text = " ".join(t.text for t in result.session.turns)
    for secret in ("sk-proj-ABCDEF", "s3cret", "4111 1111 1111 1111", "ana@example.com"):
        assert secret not in text
    stored = memory.store.sessions.get(result.session.space_id, result.session.id)
    assert stored.turns == result.session.turns


def test_scrub_hides_keys_behind_full_width_letters() -> None:
    hidden = "key: ｓｋ-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234"
    assert "ABCDEFGHIJKLMNOP" not in scrub(hidden, registry().app("generic"))
