"""Budgets for authentication: failed attempts per client address and per claimed key id, and
browser logins per key.

A presented key is always checked first, and a valid one is never refused here: what other
clients got wrong — even from the same address, as behind a proxy or on loopback — never slows
the holder of a real key. Only failures are budgeted: past the budget an unknown key gets 429
with `Retry-After` instead of 401, so a flood of guesses is refused cheaply and shows in the
metrics. (Guessing is not the threat itself: a key carries 256 bits of secret.) A valid key's
requests have their own budget (a `Limiter` per key, in `deps.get_caller`), and its browser
logins another, so one key cannot mint sessions without end. With `shared` buckets (the store's)
every server process spends from the same budgets.

The client address is the socket's peer (`request.client.host`); forwarded-for headers are not
trusted, since any client can write them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from forethought.server.ratelimit import Limiter, Verdict, limiter
from forethought.server.settings import ServerSettings
from forethought.store.contracts.limits import LimitStore

__all__ = ["AuthGuard", "claimed_key_id"]

_MAX_CLAIMED_ID = 32  # key ids are 12 hex digits; anything longer is not worth a bucket of its own


def claimed_key_id(presented: str) -> str | None:
    """The key id a presented key claims (`ft_<id>_<secret>`), if it has that shape."""
    parts = presented.split("_", 2)
    if len(parts) == 3 and parts[0] == "ft" and 0 < len(parts[1]) <= _MAX_CLAIMED_ID:
        return parts[1]
    return None


@dataclass
class AuthGuard:
    settings: ServerSettings
    shared: LimitStore | None = None
    failures: Limiter = field(init=False)
    logins: Limiter = field(init=False)

    def __post_init__(self) -> None:
        s = self.settings
        self.failures = limiter(s.auth_failure_rate, s.auth_failure_burst, prefix="auth:", shared=self.shared)
        self.logins = limiter(s.login_rate, s.login_burst, prefix="login:", shared=self.shared)

    def failed(self, address: str, presented: str) -> Verdict:
        """Count one failed authentication; refused when the address or the claimed key id has
        failed too often lately (both buckets are charged either way)."""
        verdicts = [self.failures.take(f"addr:{address}")]
        claimed = claimed_key_id(presented)
        if claimed is not None:
            verdicts.append(self.failures.take(f"key:{claimed}"))
        refused = [v for v in verdicts if not v.allowed]
        return max(refused, key=lambda v: v.retry_after_s) if refused else Verdict(True)

    def login(self, key_id: str) -> Verdict:
        """Spend one browser login of this key."""
        return self.logins.take(key_id)
