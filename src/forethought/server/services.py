"""What the routes share: the façade, the metrics, the rate limiter, the authentication budgets
(`AuthGuard`), and background start-up work. The limits count in memory for one process on a
SQLite file, in the database's buckets otherwise.

Routes reach these only through the dependencies in `deps.py`. The façade is synchronous and
thread-safe (the store keeps a connection per thread), so route handlers are plain `def`
functions that FastAPI runs in its thread pool.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from forethought.facade import Forethought
from forethought.server.authguard import AuthGuard
from forethought.server.metrics import Metrics
from forethought.server.ratelimit import Limiter, limiter
from forethought.server.settings import ServerSettings

__all__ = ["Services", "Startup", "TaskState"]

log = logging.getLogger("forethought.server")

TaskState = Literal["running", "done", "failed"]


@dataclass
class Startup:
    """Work started beside the server so the port opens at once (loading the embedding model,
    seeding demo data); `/ready` reports each task's state."""

    tasks: dict[str, TaskState] = field(default_factory=dict)
    _threads: list[threading.Thread] = field(default_factory=list)

    def run(self, name: str, work: Callable[[], object]) -> None:
        self.tasks[name] = "running"

        def target() -> None:
            try:
                work()
                self.tasks[name] = "done"
            except Exception:  # the server keeps serving; the log and /ready say what failed
                log.exception("start-up task %s failed", name)
                self.tasks[name] = "failed"

        thread = threading.Thread(target=target, name=f"forethought-{name}", daemon=True)
        self._threads.append(thread)
        thread.start()

    def wait(self, timeout_s: float | None = None) -> None:
        for thread in self._threads:
            thread.join(timeout_s)


@dataclass
class Services:
    memory: Forethought
    settings: ServerSettings
    metrics: Metrics = field(default_factory=Metrics)
    startup: Startup = field(default_factory=Startup)
    limiter: Limiter = field(init=False)
    guard: AuthGuard = field(init=False)

    def __post_init__(self) -> None:
        # One process on a file counts in memory (no write per request); several workers, or a
        # database server other hosts may share, count in the database (docs/architecture.md).
        store = self.memory.store
        shared = store.limits if self.settings.workers > 1 or store.capabilities.shared_server else None
        self.limiter = limiter(self.settings.rate_per_second, self.settings.rate_burst, prefix="api:", shared=shared)
        self.guard = AuthGuard(self.settings, shared)

    @property
    def mode(self) -> str:
        """What generates replies and judges memory: "heuristic" or "llm:<model>"."""
        model = self.memory.model
        return "heuristic" if model is None else f"llm:{model.name}"
