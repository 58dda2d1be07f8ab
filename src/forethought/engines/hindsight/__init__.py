"""The Hindsight recall engine: search delegated to a Hindsight server, records kept by the store.

    api = HttpHindsight("http://127.0.0.1:8888", bank="forethought")
    memory = Forethought.open("memory.db", engine=HindsightEngine(api))

See `engine.py` for what it guarantees and docs/architecture.md ("Hindsight engine") for the design.
"""

from forethought.engines.hindsight.base import (
    Document,
    DocumentInfo,
    HindsightAPI,
    HindsightUnavailable,
    IndexHit,
    TagGroup,
)
from forethought.engines.hindsight.engine import HindsightEngine, admits
from forethought.engines.hindsight.fake import FakeHindsight
from forethought.engines.hindsight.http import HttpHindsight

__all__ = [
    "Document",
    "DocumentInfo",
    "FakeHindsight",
    "HindsightAPI",
    "HindsightEngine",
    "HindsightUnavailable",
    "HttpHindsight",
    "IndexHit",
    "TagGroup",
    "admits",
]
