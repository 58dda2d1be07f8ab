"""Keyset pagination: a page is `limit` items after a cursor; the cursor is opaque to clients.

A cursor encodes the sort key of the last item served (a record id, an audit sequence number,
a session id...). It carries no workspace or space: it only says where to continue, and every
query stays scoped to the caller's workspace, so a cursor from elsewhere can only give nothing.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from typing import TypeVar

from forethought.domain.limits import parse_sequence
from forethought.errors import InvalidInput

__all__ = ["decode_cursor", "decode_int_cursor", "encode_cursor", "page_of", "slice_sorted"]

T = TypeVar("T")
_MAX_CURSOR = 512


def encode_cursor(value: str | int) -> str:
    return base64.urlsafe_b64encode(str(value).encode("utf-8")).decode("ascii").rstrip("=")


def decode_cursor(cursor: str | None) -> str | None:
    if cursor is None:
        return None
    try:
        if len(cursor) > _MAX_CURSOR:
            raise ValueError
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidInput("cursor: not a cursor this API gave out") from None
    if not raw:
        raise InvalidInput("cursor: not a cursor this API gave out")
    return raw


def decode_int_cursor(cursor: str | None) -> int | None:
    raw = decode_cursor(cursor)
    if raw is None:
        return None
    try:
        return parse_sequence(raw, field="cursor")
    except InvalidInput:
        raise InvalidInput("cursor: not a cursor this API gave out") from None


def page_of(items: Sequence[T], limit: int, key: Callable[[T], str | int]) -> tuple[list[T], str | None]:
    """`items` fetched with `limit + 1`: the page, and the cursor after its last item when more exist."""
    page = list(items[:limit])
    more = len(items) > limit
    return page, encode_cursor(key(page[-1])) if more and page else None


def slice_sorted(
    items: Sequence[T], key: Callable[[T], str], cursor: str | None, limit: int
) -> tuple[list[T], str | None]:
    """A page of a list held in memory, sorted by `key` (for small lists: keys, subjects)."""
    after = decode_cursor(cursor)
    ordered = sorted(items, key=key)
    rest = [item for item in ordered if after is None or key(item) > after]
    return page_of(rest[: limit + 1], limit, key)
