"""Hybrid recall over a Store."""

from forethought.recall.config import PRESETS, RecallConfig, preset
from forethought.recall.engine import RecallRequest, run_recall
from forethought.recall.results import RecallHit, RecallResult, SignalScore

__all__ = [
    "PRESETS",
    "RecallConfig",
    "RecallHit",
    "RecallRequest",
    "RecallResult",
    "SignalScore",
    "preset",
    "run_recall",
]
