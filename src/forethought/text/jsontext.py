"""JSON text from outside (an uploaded transcript, an import file, a request body), read with its
nesting bounded before the parser sees it.

Python's `json` parser recurses once per nested array or object, so `[[[[...]]]]` a hundred
thousand deep ends in a RecursionError (and costs the stack on the way). No document Forethought
reads needs more than a few levels; `MAX_JSON_DEPTH` leaves room for any tool call's arguments
inside a chat export. The depth is measured in one linear pass over quotes, escapes and brackets.
"""

from __future__ import annotations

import json
import re
from typing import Any

from forethought.errors import InvalidInput

__all__ = ["MAX_JSON_DEPTH", "json_too_deep", "load_json"]

MAX_JSON_DEPTH = 64

# The only characters that matter for nesting: quotes, escapes (so an escaped quote does not end
# a string) and brackets. Brackets inside strings are text.
_TOKEN = re.compile(r'\\.|["\[\]{}]', re.S)
_TOKEN_BYTES = re.compile(rb'\\.|["\[\]{}]', re.S)


def json_too_deep(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when `text` (JSON text) opens more than `limit` nested arrays/objects."""
    quote, opening = ('"', ("[", "{")) if isinstance(text, str) else (b'"', (b"[", b"{"))
    tokens = _TOKEN.finditer(text) if isinstance(text, str) else _TOKEN_BYTES.finditer(text)
    depth = 0
    in_string = False
    for match in tokens:
        token = match.group()
        if token == quote:
            in_string = not in_string
        elif in_string or len(token) == 2:
            continue
        elif token in opening:
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def load_json(text: str, *, what: str, limit: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads(text)`, refused with InvalidInput (naming `what`) when it nests deeper than
    `limit` or holds a number too long to convert; text that is not JSON raises
    `json.JSONDecodeError` as `json.loads` does, for callers that fall back to another format."""
    if json_too_deep(text, limit):
        raise InvalidInput(f"{what}: JSON nests deeper than {limit} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer of thousands of digits
        raise InvalidInput(f"{what}: holds a number too long to read") from None
    except RecursionError:  # not reached within the depth bound; kept so no input can crash a reader
        raise InvalidInput(f"{what}: JSON nests too deeply") from None
