"""Input limits and the validators that enforce them.

The façade calls these on every write and query, so every front end (CLI, REST, MCP) gets the
same rules and the same one-line error messages. Each raises InvalidInput; none changes anything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from forethought.domain.patterns import MAX_PATTERN_CHARS, vet
from forethought.domain.records import CheckPatterns
from forethought.errors import InvalidInput

__all__ = [
    "MAX_ATTRIBUTES_BYTES",
    "MAX_EXTERNAL_ID",
    "MAX_QUERY",
    "MAX_SEQUENCE",
    "MAX_SPEAKER",
    "MAX_STATEMENT",
    "MAX_TAGS",
    "MAX_TAG_LENGTH",
    "check_attributes",
    "check_external_id",
    "check_file_paths",
    "check_k",
    "check_kind",
    "check_name",
    "check_patterns",
    "check_query",
    "check_sequence",
    "check_speaker",
    "check_statement",
    "check_tags",
    "clean_text",
    "parse_sequence",
]

MAX_STATEMENT = 4_000
MAX_QUERY = 2_000
MAX_TAGS = 32
MAX_TAG_LENGTH = 64
MAX_EXTERNAL_ID = 200
MAX_NAME = 200
MAX_SPEAKER = 80  # a speaker's name in a transcript ("Maria: ..."); the plain-text reader takes 41
MAX_ATTRIBUTES_BYTES = 16_384
MAX_K = 200

_KIND = re.compile(r"[a-z][a-z0-9_]{0,63}")
_TAG = re.compile(r"[A-Za-z0-9_.:/-]{1,64}")
# Control characters other than tab and newline have no place in a memory.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean_text(value: object, *, field: str, limit: int) -> str:
    """Trimmed text, checked for type, emptiness, NUL/control bytes, surrogates and length."""
    if not isinstance(value, str):
        raise InvalidInput(f"{field}: expected text, got {type(value).__name__}")
    if "\x00" in value:
        raise InvalidInput(f"{field}: contains a NUL byte")
    if _CONTROL.search(value):
        raise InvalidInput(f"{field}: contains control characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{field}: is not valid UTF-8 (lone surrogate)") from None
    text = value.strip()
    if not text:
        raise InvalidInput(f"{field}: is empty")
    if len(text) > limit:
        raise InvalidInput(f"{field}: {len(text):,} characters, over the limit of {limit:,}")
    return text


def check_statement(value: object) -> str:
    return clean_text(value, field="text", limit=MAX_STATEMENT)


def check_query(value: object) -> str:
    return clean_text(value, field="query", limit=MAX_QUERY)


def check_name(value: object, *, field: str) -> str:
    return clean_text(value, field=field, limit=MAX_NAME)


def check_speaker(value: object, *, field: str = "human") -> str:
    """A speaker's name, such as the person among the named speakers of a transcript."""
    return clean_text(value, field=field, limit=MAX_SPEAKER)


def check_kind(value: object) -> str:
    if not isinstance(value, str) or not _KIND.fullmatch(value):
        raise InvalidInput(f"kind: {value!r} must be 1-64 characters of a-z, 0-9 and _, starting with a letter")
    return value


def check_tags(values: Iterable[object] | None) -> tuple[str, ...]:
    if values is None:
        return ()
    if isinstance(values, str):
        raise InvalidInput("tags: expected a list of tags, got one string")
    tags: list[str] = []
    for value in values:
        if not isinstance(value, str) or not _TAG.fullmatch(value):
            raise InvalidInput(f"tag: {value!r} must be 1-{MAX_TAG_LENGTH} characters of letters, digits and _.:/-")
        if value not in tags:
            tags.append(value)
    if len(tags) > MAX_TAGS:
        raise InvalidInput(f"tags: {len(tags)} tags, over the limit of {MAX_TAGS}")
    return tuple(tags)


def check_external_id(value: object) -> str | None:
    if value is None:
        return None
    return clean_text(value, field="external id", limit=MAX_EXTERNAL_ID)


def check_attributes(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidInput("attributes: expected an object")
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"attributes: not JSON-serialisable ({exc})") from None
    except RecursionError:  # nested thousands deep (a Python caller: a request body is bounded first)
        raise InvalidInput("attributes: nested too deeply") from None
    if "\\u0000" in encoded:
        raise InvalidInput("attributes: contains a NUL byte")
    if len(encoded.encode("utf-8")) > MAX_ATTRIBUTES_BYTES:
        raise InvalidInput(f"attributes: over the limit of {MAX_ATTRIBUTES_BYTES:,} bytes as JSON")
    return dict(value)


MAX_FILE_PATHS = 100
MAX_FILE_PATH_CHARS = 1_000


def check_file_paths(value: Sequence[str]) -> tuple[str, ...]:
    """The files a task touches: at most 100 paths of at most 1,000 characters each (every
    record of a brief is weighed against them)."""
    paths = tuple(value)
    if len(paths) > MAX_FILE_PATHS:
        raise InvalidInput(f"file_paths: at most {MAX_FILE_PATHS} paths")
    for path in paths:
        if not isinstance(path, str) or len(path) > MAX_FILE_PATH_CHARS:
            raise InvalidInput(f"file_paths: each path is a string of at most {MAX_FILE_PATH_CHARS:,} characters")
        if _CONTROL.search(path):
            raise InvalidInput("file_paths: a path contains control characters")
    return paths


MAX_PATTERNS = 16
MAX_PATTERN_LENGTH = MAX_PATTERN_CHARS  # one limit: the pattern engine's


def check_patterns(value: CheckPatterns) -> CheckPatterns:
    """Check patterns must compile and stay small (they run on every checked draft)."""
    if len(value.forbid) + len(value.require) > MAX_PATTERNS:
        raise InvalidInput(f"check patterns: at most {MAX_PATTERNS} per record")
    for pattern in (*value.forbid, *value.require):
        if not isinstance(pattern, str) or not pattern or len(pattern) > MAX_PATTERN_LENGTH:
            raise InvalidInput(f"check pattern: must be 1-{MAX_PATTERN_LENGTH} characters")
        vet(pattern)  # compiles, and finishes on inputs made to make backtracking explode
    return value


def check_k(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_K:
        raise InvalidInput(f"k: must be a whole number from 1 to {MAX_K}")
    return value


# The largest integer SQLite stores: a sequence number (an audit event's, a progress event's) or a
# cursor built from one never exceeds it, and a larger one could only fail in the store.
MAX_SEQUENCE = 2**63 - 1
_ASCII_DIGITS = re.compile(r"[0-9]{1,19}")


def check_sequence(value: object, *, field: str) -> int:
    """A sequence number given as an int: whole, from 0 to `MAX_SEQUENCE`."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_SEQUENCE:
        raise InvalidInput(f"{field}: must be a whole number from 0 to {MAX_SEQUENCE:,}")
    return value


def parse_sequence(text: str, *, field: str) -> int:
    """A sequence number written in ASCII digits (from a query string, a header or a cursor).

    `str.isdigit` and `int` also take other scripts' digits ("١٢٣") and superscripts, and `int`
    takes any length: only 0-9, at most 19 of them, up to `MAX_SEQUENCE`, are a sequence number.
    """
    if not _ASCII_DIGITS.fullmatch(text):
        raise InvalidInput(f"{field}: must be a whole number from 0 to {MAX_SEQUENCE:,} in digits 0-9")
    return check_sequence(int(text), field=field)
