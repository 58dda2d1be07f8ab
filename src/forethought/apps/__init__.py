"""Applications: record kinds, extractors and policies plugged into the memory pipeline."""

from forethought.apps.base import App, Applicability, KindSpec, PolicyFinding, Review

__all__ = ["App", "Applicability", "KindSpec", "PolicyFinding", "Review"]
