"""Identifiers: record ids (ULIDs), short human handles, and opaque space ids."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
import time

__all__ = ["handle_for", "new_id", "space_id_for"]

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_lock = threading.Lock()
_last_ms = -1
_last_rand = 0


def _b32(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def new_id() -> str:
    """A new ULID: 48 bits of milliseconds then 80 random bits, 26 Crockford base32 characters.

    Ids made in the same millisecond by this process increase monotonically (the random part is
    incremented), so they sort in creation order and never repeat.
    """
    global _last_ms, _last_rand
    with _lock:
        now = time.time_ns() // 1_000_000
        if now <= _last_ms:
            now = _last_ms
            _last_rand = (_last_rand + 1) & ((1 << 80) - 1)
        else:
            _last_rand = int.from_bytes(os.urandom(10), "big")
        _last_ms = now
        return _b32((now << 80) | _last_rand, 26)


def handle_for(record_id: str) -> str:
    """The short human handle of a record: 8 base32 characters (40 bits) of sha256(id), lower case.

    Hashing the whole id (not taking its prefix) matters: ULID prefixes are timestamps, so records
    made in the same second would otherwise share their handles.
    """
    digest = int.from_bytes(hashlib.sha256(record_id.encode("utf-8")).digest()[:5], "big")
    return _b32(digest, 8).lower()


def space_id_for(secret: bytes, workspace: str, subject_type: str, subject_id: str) -> str:
    """The opaque id of the space of (workspace, subject type, subject id) under a store secret.

    The three parts are encoded as a JSON array so that no choice of separators can make two
    different subjects collide.
    """
    message = json.dumps([workspace, subject_type, subject_id], ensure_ascii=False).encode("utf-8")
    return hmac.new(secret, message, hashlib.sha256).hexdigest()
