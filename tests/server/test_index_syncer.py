"""The server drains a remote recall engine's index-sync queue in the background: a record
written by any path reaches the engine's index without a recall or `index sync` asking for it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from forethought import Forethought
from forethought.embed.hashing import HashingEmbedder
from forethought.engines.hindsight import FakeHindsight, HindsightEngine
from forethought.server import ServerSettings, create_app


def _until(condition: Callable[[], bool], timeout_s: float = 20.0) -> bool:
    """Wait for `condition()` (a callable) to hold; False if it never did."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_a_record_reaches_the_engines_index_while_the_server_runs(tmp_path: Path) -> None:
    index = FakeHindsight()
    engine = HindsightEngine(index, sync_on_recall=False)
    with Forethought.open(tmp_path / "s.db", embedder=HashingEmbedder(), engine=engine) as memory:
        app = create_app(memory, ServerSettings(index_sync_s=0.05))
        with TestClient(app):
            record = memory.retain(memory.scope("project", "p"), "We deploy on Tuesdays.", kind="decision").record
            assert _until(lambda: record.id in index.docs)
            assert app.state.index_syncer.passes >= 1
        passes = app.state.index_syncer.passes
        memory.retain(memory.scope("project", "p"), "We freeze on Fridays.", kind="decision")
        time.sleep(0.2)
        assert app.state.index_syncer.passes == passes  # stopped with the server
        assert memory.memory.store.index_sync.pending() == 1


def test_a_failing_index_is_retried_and_never_stops_the_syncer(tmp_path: Path) -> None:
    index = FakeHindsight()
    index.fail_next(3)
    engine = HindsightEngine(index, sync_on_recall=False, max_backoff_s=0.01)
    with Forethought.open(tmp_path / "f.db", embedder=HashingEmbedder(), engine=engine) as memory:
        app = create_app(memory, ServerSettings(index_sync_s=0.05))
        with TestClient(app):
            record = memory.retain(memory.scope("project", "p"), "Builds run on main only.", kind="process").record
            assert _until(lambda: record.id in index.docs)


def test_the_builtin_engine_starts_no_syncer(tmp_path: Path) -> None:
    with Forethought.open(tmp_path / "b.db", embedder=HashingEmbedder()) as memory:
        app = create_app(memory, ServerSettings(index_sync_s=0.05))
        with TestClient(app):
            memory.retain(memory.scope("project", "p"), "We deploy on Tuesdays.", kind="decision")
            time.sleep(0.2)
            assert app.state.index_syncer.passes == 0
