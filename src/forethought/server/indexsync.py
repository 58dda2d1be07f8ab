"""Record changes reach a remote recall engine's index in the background while the server runs.

With an engine that keeps its own index (Hindsight), every write queues the ids it touched in the
store's index-sync queue, in its own transaction. A thread of each server process drains that
queue every `interval_s` (leased rows, so several workers share it without doing a change
twice); a recall still drains what its space owes first, so a writer reads its own writes. A
failed pass is logged and retried on the next tick: the queue keeps the work.
"""

from __future__ import annotations

import logging
import threading

from forethought.facade import Forethought

__all__ = ["IndexSyncer"]

log = logging.getLogger("forethought.server")


class IndexSyncer:
    def __init__(self, memory: Forethought, *, interval_s: float, limit: int = 256) -> None:
        self.memory = memory
        self.interval_s = interval_s
        self.limit = limit
        self.passes = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="forethought-index-sync", daemon=True)
            self._thread.start()

    def stop(self, timeout_s: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                while not self._stop.is_set():  # a full pass means more is waiting: go on at once
                    report = self.memory.sync_index(limit=self.limit)
                    self.passes += 1
                    if report.done + report.failed < self.limit:
                        break
            except Exception:  # the queue keeps the work; the next tick tries again
                log.exception("index sync failed; retrying in %.1f s", self.interval_s)
