"""The one exception tree of Forethought.

    ForethoughtError
    ├── InvalidInput            the caller's input is wrong (bad text, size, timestamp, kind...)
    │   └── InvalidTransition   a status change the record lifecycle forbids
    ├── NotFound                no such record/space/session in the space named
    ├── Conflict                the request contradicts stored state (e.g. external id reused
    │                           for different content)
    └── BackendError            a store, embedder or provider failed; the input was fine
        ├── StoreBusy           the store stayed locked past the write deadline
        ├── IntegrityError      the store found data it must not return (e.g. a foreign space's row)
        ├── ModelUnavailable    a model file is missing or fails its hash check
        └── ProviderError       a chat model's provider failed (defined in `forethought.llm.base`)
            ├── ProviderUnavailable, ProviderTimeout, ProviderAuthError
            └── RateLimited (carries `retry_after`), InvalidOutput

Front ends map these to exit codes / HTTP statuses in one place each; nothing else catches them.
"""

from __future__ import annotations

__all__ = [
    "BackendError",
    "Conflict",
    "ForethoughtError",
    "IntegrityError",
    "InvalidInput",
    "InvalidTransition",
    "ModelUnavailable",
    "NotFound",
    "StoreBusy",
    "validation_reason",
]


class ForethoughtError(Exception):
    """Root of every error Forethought raises on purpose."""

    code = "error"

    @property
    def summary(self) -> str:
        """The first line, for a user (a message may carry detail lines meant for the log)."""
        text = str(self)
        return text.splitlines()[0] if text else type(self).__name__


class InvalidInput(ForethoughtError, ValueError):
    """The caller's input is invalid; nothing was changed."""

    code = "invalid_input"


class InvalidTransition(InvalidInput):
    """A record status change that the lifecycle does not allow."""

    code = "invalid_transition"


class NotFound(ForethoughtError, LookupError):
    """The named record, session or space does not exist in this space."""

    code = "not_found"


class Conflict(ForethoughtError):
    """The request contradicts what is stored."""

    code = "conflict"


class BackendError(ForethoughtError):
    """A backend (store, embedder, model provider) failed; the input itself was acceptable."""

    code = "backend_error"


class StoreBusy(BackendError):
    """The store could not take the write lock before the deadline."""

    code = "store_busy"


class IntegrityError(BackendError):
    """The store met data it must never return, such as a row of another space."""

    code = "integrity_error"


class ModelUnavailable(BackendError):
    """A model file is missing, unreadable, or does not match its pinned hash."""

    code = "model_unavailable"


def validation_reason(exc: ValueError) -> str:
    """The first finding of a validation error in one line, for a user. For pydantic's
    ValidationError that is its first error's message — not `str(exc)`, which ends in a link."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        found = errors()
        if found:
            message = str(found[0].get("msg", "invalid value"))
            return message.removeprefix("Value error, ").removeprefix("space name: ")
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else "invalid value"
