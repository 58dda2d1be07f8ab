"""What the access log may say about a request: its path and the names of its query parameters,
never their values.

A query string carries what people type into a form that is sent with GET (a search box, a task)
and what a client puts in a URL: a pasted key or a customer's e-mail address would otherwise land
in the server's log at `--log-level info`. Each value is replaced by `***` (the names stay, so the
log still says which page and which filter were asked for), and the path is passed through the
secret and personal-data scrubbers, since a subject id or a record handle is typed too. The path
stays percent-encoded, so a crafted URL cannot forge a line of the log.
"""

from __future__ import annotations

import logging
from urllib.parse import quote, unquote

from forethought.text.detectors import find_personal_data, find_secrets, redact_all

__all__ = ["ACCESS_LOGGER", "QueryScrubber", "install", "scrub_target"]

ACCESS_LOGGER = "uvicorn.access"
HIDDEN = "***"
_MAX_NAME = 64  # a parameter name longer than any this server reads is cut in the log
_MAX_PARAMS = 32


def scrub_target(target: str) -> str:
    """`/path?a=1&b=2` as the log may show it: `/path?a=***&b=***`, the path scrubbed."""
    path, sep, query = target.partition("?")
    shown = _scrub_path(path)
    if not sep:
        return shown
    names = []
    for part in query.split("&")[:_MAX_PARAMS]:
        if not part:
            continue
        name, has_value, _ = part.partition("=")
        clean = quote(unquote(name.replace("+", " "))[:_MAX_NAME], safe="")
        names.append(f"{clean}={HIDDEN}" if has_value else clean)
    more = "&..." if query.count("&") >= _MAX_PARAMS else ""
    return f"{shown}?{'&'.join(names)}{more}"


def _scrub_path(path: str) -> str:
    """Each segment on its own: the scrubbers read `/x/a@b.io/` as part of a URL, not an address."""
    return "/".join(quote(_scrub(unquote(segment)), safe="[]:@!$'()*,;=+-._~") for segment in path.split("/"))


def _scrub(text: str) -> str:
    text, _ = redact_all(text, find_secrets)
    text, _ = redact_all(text, find_personal_data)
    return text


class QueryScrubber(logging.Filter):
    """Rewrites the request target of uvicorn's access log records (its third argument)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], scrub_target(args[2]), args[3], args[4])
        return True


def install(logger: logging.Logger | None = None) -> None:
    """Put the scrubber on the access logger (once)."""
    target = logger or logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, QueryScrubber) for f in target.filters):
        target.addFilter(QueryScrubber())
