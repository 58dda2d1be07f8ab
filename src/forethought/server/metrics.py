"""Prometheus metrics in the text exposition format, with no dependency.

Request counts and a latency histogram per (method, route template, status) — templates, never
raw paths, so ids and subject names never become labels —, governed turns by mode and outcome,
requests refused by the rate limiter, and the number of stored records per status (read from
the store at most every `memory_ttl_s` seconds; the numbers are totals across workspaces).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BUCKETS", "Metrics", "MetricsMiddleware"]

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
Labels = tuple[tuple[str, str], ...]


def _labels(labels: Labels) -> str:
    if not labels:
        return ""
    escaped = (f'{k}="{v.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"' for k, v in labels)
    return "{" + ",".join(escaped) + "}"


class Metrics:
    def __init__(self, *, memory_ttl_s: float = 10.0) -> None:
        self._lock = threading.Lock()
        self._requests: dict[Labels, int] = defaultdict(int)
        self._buckets: dict[Labels, list[int]] = {}
        self._sums: dict[Labels, float] = defaultdict(float)
        self._turns: dict[Labels, int] = defaultdict(int)
        self._rate_limited = 0
        self._memory_ttl_s = memory_ttl_s
        self._memory: tuple[float, Mapping[str, int]] | None = None

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        with self._lock:
            self._requests[(("method", method), ("route", route), ("status", str(status)))] += 1
            key = (("method", method), ("route", route))
            counts = self._buckets.setdefault(key, [0] * (len(BUCKETS) + 1))
            for i, bound in enumerate(BUCKETS):
                if seconds <= bound:
                    counts[i] += 1
            counts[-1] += 1
            self._sums[key] += seconds

    def turn(self, *, mode: str, blocked: bool) -> None:
        with self._lock:
            self._turns[
                (("mode", "heuristic" if mode == "heuristic" else "llm"), ("blocked", str(blocked).lower()))
            ] += 1

    def rate_limited(self) -> None:
        with self._lock:
            self._rate_limited += 1

    def memory_counts(self, read: Callable[[], Mapping[str, int]]) -> Mapping[str, int]:
        """Records per status, from `read` unless a reading younger than the TTL is at hand."""
        now = time.monotonic()
        cached = self._memory
        if cached is not None and now - cached[0] < self._memory_ttl_s:
            return cached[1]
        counts = dict(read())
        self._memory = (now, counts)
        return counts

    def render(self, memory: Mapping[str, int]) -> str:
        lines: list[str] = []

        def family(name: str, kind: str, help_text: str) -> None:
            lines.extend([f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"])

        with self._lock:
            family("forethought_http_requests_total", "counter", "HTTP requests by method, route template and status.")
            lines += [f"forethought_http_requests_total{_labels(k)} {v}" for k, v in sorted(self._requests.items())]
            name = "forethought_http_request_duration_seconds"
            family(name, "histogram", "HTTP request latency by method and route template.")
            for key, counts in sorted(self._buckets.items()):
                for bound, count in zip((*map(str, BUCKETS), "+Inf"), counts, strict=True):
                    lines.append(f"{name}_bucket{_labels((*key, ('le', bound)))} {count}")
                lines.append(f"{name}_sum{_labels(key)} {self._sums[key]:.6f}")
                lines.append(f"{name}_count{_labels(key)} {counts[-1]}")
            family("forethought_turns_total", "counter", "Governed turns by mode (heuristic or llm) and outcome.")
            lines += [f"forethought_turns_total{_labels(k)} {v}" for k, v in sorted(self._turns.items())]
            family("forethought_rate_limited_total", "counter", "Requests refused by a rate limit.")
            lines.append(f"forethought_rate_limited_total {self._rate_limited}")
        family("forethought_memory_records", "gauge", "Stored records by status, across all workspaces.")
        statuses = ("candidate", "active", "superseded", "retracted", "rejected")
        lines += [f'forethought_memory_records{{status="{s}"}} {int(memory.get(s, 0))}' for s in statuses]
        return "\n".join(lines) + "\n"


class MetricsMiddleware:
    """Times every HTTP request and counts it under the route template that served it."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def record_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, record_status)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            self.metrics.observe_request(scope.get("method", ""), template, status, time.perf_counter() - start)
