"""Recall engines that keep their own index outside the store (the seam is `recall.base.RecallEngine`),
and the one function an entry point builds the configured engine with."""

from __future__ import annotations

from forethought.engines.hindsight import HindsightEngine, HttpHindsight
from forethought.recall.base import RecallEngine
from forethought.settings import RecallSettings

__all__ = ["engine_from_settings"]


def engine_from_settings(settings: RecallSettings) -> RecallEngine | None:
    """The engine `settings` names (None: the built-in one)."""
    if settings.engine == "hindsight" and settings.hindsight_url:
        return HindsightEngine(HttpHindsight(settings.hindsight_url, bank=settings.hindsight_bank))
    return None
