"""The server's own settings: request limits, rate limits, CORS and metrics access.

Built only at the entry point (`forethought serve` passes the process environment to
`ServerSettings.load`); `create_app` takes the object explicitly, so tests build their own.

| setting | environment | default |
|---|---|---|
| max_body_bytes | FORETHOUGHT_SERVER_MAX_BODY_BYTES | 1 MiB |
| max_json_depth | FORETHOUGHT_SERVER_MAX_JSON_DEPTH | 32 |
| rate_per_second | FORETHOUGHT_SERVER_RATE (0 turns rate limiting off) | 20 |
| rate_burst | FORETHOUGHT_SERVER_BURST | 40 |
| auth_failure_rate | FORETHOUGHT_SERVER_AUTH_FAILURE_RATE (0 turns it off) | 0.2 |
| auth_failure_burst | FORETHOUGHT_SERVER_AUTH_FAILURE_BURST | 20 |
| login_rate | FORETHOUGHT_SERVER_LOGIN_RATE (0 turns it off) | 0.1 |
| login_burst | FORETHOUGHT_SERVER_LOGIN_BURST | 10 |
| cors_origins | FORETHOUGHT_SERVER_CORS_ORIGINS (comma separated) | none: no CORS |
| metrics_token | FORETHOUGHT_SERVER_METRICS_TOKEN | none: /metrics is open |
| worker_threads | FORETHOUGHT_SERVER_THREADS | twice the usable CPUs |
| workers | FORETHOUGHT_SERVER_WORKERS (`serve --workers` sets it) | 1 |
| allowed_hosts | FORETHOUGHT_SERVER_ALLOWED_HOSTS (comma separated) | none: any Host (`serve` derives it) |
| index_sync_s | FORETHOUGHT_SERVER_INDEX_SYNC_S | 2 (seconds between background syncs to a remote recall engine) |
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from forethought.errors import InvalidInput

__all__ = ["ServerSettings"]

_ENV = {
    "max_body_bytes": "FORETHOUGHT_SERVER_MAX_BODY_BYTES",
    "max_json_depth": "FORETHOUGHT_SERVER_MAX_JSON_DEPTH",
    "rate_per_second": "FORETHOUGHT_SERVER_RATE",
    "rate_burst": "FORETHOUGHT_SERVER_BURST",
    "auth_failure_rate": "FORETHOUGHT_SERVER_AUTH_FAILURE_RATE",
    "auth_failure_burst": "FORETHOUGHT_SERVER_AUTH_FAILURE_BURST",
    "login_rate": "FORETHOUGHT_SERVER_LOGIN_RATE",
    "login_burst": "FORETHOUGHT_SERVER_LOGIN_BURST",
    "cors_origins": "FORETHOUGHT_SERVER_CORS_ORIGINS",
    "metrics_token": "FORETHOUGHT_SERVER_METRICS_TOKEN",
    "worker_threads": "FORETHOUGHT_SERVER_THREADS",
    "workers": "FORETHOUGHT_SERVER_WORKERS",
    "allowed_hosts": "FORETHOUGHT_SERVER_ALLOWED_HOSTS",
    "index_sync_s": "FORETHOUGHT_SERVER_INDEX_SYNC_S",
}


def _usable_cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class ServerSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # A request body larger than this is refused with 413 before more of it is read.
    max_body_bytes: int = Field(default=1 << 20, ge=1024, le=64 << 20)
    # JSON nested deeper than this is refused with 422 before it is parsed.
    max_json_depth: int = Field(default=32, ge=2, le=512)
    # Per API key token bucket: sustained requests per second (0: no limit) and burst size.
    rate_per_second: float = Field(default=20.0, ge=0)
    rate_burst: int = Field(default=40, ge=1)
    # Failed authentications (an unknown or revoked key, on the API, the web login or MCP) per
    # client address and per claimed key id: sustained per second (0: no limit) and burst. Past
    # it, 429 instead of 401; a valid key is never refused for others' failures.
    auth_failure_rate: float = Field(default=0.2, ge=0)
    auth_failure_burst: int = Field(default=20, ge=1)
    # Browser logins per key: sustained per second (0: no limit) and burst.
    login_rate: float = Field(default=0.1, ge=0)
    login_burst: int = Field(default=10, ge=1)
    # Browser origins allowed to call the API; empty means no CORS middleware at all.
    cors_origins: tuple[str, ...] = ()
    # When set, /metrics requires `Authorization: Bearer <token>`; workspace API keys never do.
    metrics_token: SecretStr | None = None
    # Requests the core works on at once: route handlers are sync and run in a thread pool, the
    # rest wait on the event loop. The work is mostly CPU under one GIL, so more threads than
    # cores only add contention: on 2 CPUs under 16 clients, 4 threads served 63 requests/s,
    # 8 served 49 and anyio's default of 40 served 40 (bench/load.py, docs/benchmarks.md).
    worker_threads: int = Field(default_factory=lambda: 2 * _usable_cpus(), ge=1, le=1024)
    # Server processes answering on the same port over one database (sessions, rate limits and
    # import jobs live in it, so any worker answers any request).
    workers: int = Field(default=1, ge=1, le=64)
    # Host names a request's `Host` header may name (any other is refused with 400: DNS
    # rebinding); empty accepts any. `forethought serve` fills it from the address it binds.
    allowed_hosts: tuple[str, ...] = ()
    # With a recall engine that keeps its own index (Hindsight), seconds between background passes
    # over the store's index-sync queue (`server/indexsync.py`).
    index_sync_s: float = Field(default=2.0, ge=0.05, le=3600)

    @classmethod
    def load(cls, environ: Mapping[str, str]) -> ServerSettings:
        values: dict[str, object] = {}
        for name, env in _ENV.items():
            raw = environ.get(env, "").strip()
            if not raw:
                continue
            if name in ("cors_origins", "allowed_hosts"):
                values[name] = tuple(o.strip() for o in raw.split(",") if o.strip())
            else:
                values[name] = raw
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            error = exc.errors()[0]
            env = _ENV.get(str(error["loc"][0]), str(error["loc"][0])) if error["loc"] else "server settings"
            raise InvalidInput(f"{env}: {error['msg']}") from None
