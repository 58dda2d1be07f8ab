"""A real Hindsight server for the tests, on loopback and offline: the package's `LocalHindsight`
(`forethought.engines.hindsight.local`), given the tests' environment and the Hindsight
environment `make hindsight` installs (.hindsight-venv, or `HINDSIGHT_VENV`).

`HindsightServer(dsn, embedder)` starts it against the PostgreSQL database `dsn` and waits for
/health; a missing environment raises `HindsightUnavailable` naming the fix.
"""

from __future__ import annotations

import os
from pathlib import Path

from forethought.embed.base import Embedder
from forethought.engines.hindsight.base import HindsightUnavailable
from forethought.engines.hindsight.local import LocalHindsight

__all__ = ["VENV", "HindsightServer", "HindsightUnavailable"]

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(os.environ.get("HINDSIGHT_VENV", ROOT / ".hindsight-venv"))


class HindsightServer(LocalHindsight):
    def __init__(self, dsn: str, embedder: Embedder) -> None:
        super().__init__(dsn, embedder, venv=VENV, parent_env=os.environ)
