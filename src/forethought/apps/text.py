"""Text helpers the built-in apps' rules share: tag slugs and compact word lists."""

from __future__ import annotations

import re

__all__ = ["tag_value", "words"]


def tag_value(text: str) -> str:
    """A tag-safe slug: lower case letters, digits and dots; + and # spelled out; the rest '-'."""
    slug = re.sub(r"[^a-z0-9.]+", "-", text.lower().replace("+", "p").replace("#", "sharp")).strip("-.")
    return slug[:48] or "x"


def words(text: str) -> frozenset[str]:
    """A vocabulary written as whitespace-separated words (keeps long word lists compact)."""
    return frozenset(text.split())
