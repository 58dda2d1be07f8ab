"""The one chokepoint every write to the database passes: no known secret is ever stored.

The pipeline scrubs what it captures with the app's policy (personal data redacted or kept), but a
secret can arrive through any field — a session title, a record's context or attributes, an audit
reason, a key's name, an app's own table. So a backend binds no value it has not passed through
`scrub_params` first: every text parameter of every writing statement has its secrets and card
numbers replaced by placeholders (`[REDACTED:api_key]`, `[card]`), whatever route, front end or
app wrote it. A backend calls it in the one place its write transactions run (SQLite:
`Database.write`), so a new column or a new write path is covered without anyone remembering to.

- Text that holds JSON (attributes, evidence, audit details, metadata) is scrubbed inside its
  strings and re-encoded, so it stays JSON; it is rewritten only when something was found.
- Scrubbing is idempotent (a placeholder is not a secret), so a value a statement matches on
  (an FTS delete naming the stored text) is bound exactly as it was stored.
- Ids, hashes, timestamps and numbers pass through unchanged: bare hex, ULIDs and dates are not
  secrets to the detectors (`text/detectors.py` pins each).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from forethought.text.detectors import Span, find_cards, find_secrets, redact_all

__all__ = ["scrub_params", "scrub_text"]

_SHORTEST = 4  # "pw=x": nothing shorter holds a secret


def _finder(value: str) -> list[Span]:
    return [*find_secrets(value), *find_cards(value)]


def scrub_text(value: str) -> str:
    """`value` with its secrets and card numbers replaced (JSON kept JSON)."""
    if len(value) < _SHORTEST:
        return value
    if value[:1] in "{[":
        try:
            decoded = json.loads(value)
        except (ValueError, RecursionError):
            decoded = None
        else:
            clean = _scrub_json(decoded)
            return value if clean == decoded else json.dumps(clean, ensure_ascii=False)
    return redact_all(value, _finder)[0]


def _scrub_json(value: Any) -> Any:
    if isinstance(value, str):
        return redact_all(value, _finder)[0] if len(value) >= _SHORTEST else value
    if isinstance(value, list):
        return [_scrub_json(v) for v in value]
    if isinstance(value, dict):
        return {_scrub_json(k): _value(k, v) for k, v in value.items()}
    return value


def _value(key: Any, value: Any) -> Any:
    """A JSON member's value, scrubbed with its name in view: `{"password": "hunter2"}` hides a
    secret that neither string shows alone."""
    if not isinstance(key, str) or not isinstance(value, str):
        return _scrub_json(value)
    head = f"{key}="
    joined = redact_all(head + value, _finder)[0]
    return joined[len(head) :] if joined.startswith(head) else _scrub_json(value)


def scrub_params(params: Any) -> Any:
    """The parameters of one statement (a sequence or a name -> value mapping), scrubbed."""
    if isinstance(params, dict):
        return {k: scrub_text(v) if isinstance(v, str) else v for k, v in params.items()}
    if isinstance(params, Sequence) and not isinstance(params, (str, bytes)):
        return tuple(scrub_text(v) if isinstance(v, str) else v for v in params)
    return params
