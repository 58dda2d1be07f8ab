"""Commit messages read on their own (`apps/project/sources/git_messages.py`): noise is named by
structure, and subjects that only look like noise are read; a subject made a sentence."""

from __future__ import annotations

import pytest

from forethought.apps.project.sources.git_messages import MAX_MESSAGE_CHARS, read_message


@pytest.mark.parametrize(
    ("subject", "reason"),
    [
        ("wip", "work in progress"),
        ("WIP: half of the new checkout", "work in progress"),
        ("[WIP] try the queue", "work in progress"),
        ("fixup! fix(auth): never cache tokens", "fixup commit"),
        ("squash! Add the retry loop", "fixup commit"),
        ("amend! Add the retry loop", "fixup commit"),
        ("Bump lodash from 4.17.20 to 4.17.21", "version bump or release"),
        ("build(deps): bump the npm group with 3 updates", "version bump or release"),
        ("chore(release): 2.4.0", "version bump or release"),
        ("Release v2.0.1", "version bump or release"),
        ("v1.3.0", "version bump or release"),
        ("chore: bump version to 1.2.3", "version bump or release"),
        ("fix typo", "formatting or typo only"),
        ("Fix typos in the README", "formatting or typo only"),
        ("run prettier", "formatting or typo only"),
        ("lint", "formatting or typo only"),
        ("Fix lint errors", "formatting or typo only"),
        ("style: reformat with black", "formatting or typo only"),
        ("", "empty message"),
        ("Signed-off-by: Ada Lovelace <ada@example.org>", "empty message"),
        ('Revert "Use the new cache"', "revert names no commit"),
        ("revert: let us never again speak of the noodle incident", "revert names no commit"),
    ],
)
def test_noise_is_named(subject: str, reason: str) -> None:
    assert read_message(subject + "\n").skip == reason


@pytest.mark.parametrize(
    "subject",
    [
        "Release the lock before retrying because the worker can die holding it",
        "Bump the timeout to 30 s because the payment API is slow at night",
        "Wipe the session cache on logout",
        "fix: formatting of currency amounts uses the customer's locale",
        "Lint rules forbid default exports in the web app",
    ],
)
def test_subjects_that_only_look_like_noise_are_read(subject: str) -> None:
    assert read_message(subject).skip is None


def test_a_breaking_change_and_its_scope_are_kept() -> None:
    message = read_message("feat(api)!: list endpoints return cursors\n\nBREAKING CHANGE: page numbers are gone.\n")
    assert (message.kind, message.area, message.breaking) == ("feat", "api", True)
    assert message.text == "List endpoints return cursors.\n\nBREAKING CHANGE: page numbers are gone."


def test_a_subject_is_made_a_sentence_only_where_it_is_safe() -> None:
    assert read_message("fix: iOS builds sign with the team key").text == "iOS builds sign with the team key."
    assert read_message("docs: why we pin numpy?").text == "Why we pin numpy?"
    assert read_message("chore: `make test` runs the browser tests").text == "`make test` runs the browser tests."


def test_a_long_message_is_cut_at_the_bound() -> None:
    message = read_message("Cut here\n\n" + "x" * (MAX_MESSAGE_CHARS * 2))
    assert message.truncated_from == MAX_MESSAGE_CHARS * 2 + 10
    assert len(message.text) <= MAX_MESSAGE_CHARS + 1
