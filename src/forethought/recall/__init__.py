"""Hybrid recall over a Store."""

from forethought.recall.base import BuiltinEngine, RecallEngine, ReconcileReport, SyncReport
from forethought.recall.config import PRESETS, RecallConfig, preset
from forethought.recall.engine import RecallRequest, run_recall
from forethought.recall.results import RecallHit, RecallResult, SignalScore

__all__ = [
    "PRESETS",
    "BuiltinEngine",
    "RecallConfig",
    "RecallEngine",
    "RecallHit",
    "RecallRequest",
    "RecallResult",
    "ReconcileReport",
    "SignalScore",
    "SyncReport",
    "preset",
    "run_recall",
]
