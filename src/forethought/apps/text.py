"""Text helpers the built-in apps' rules share: sentences, tag slugs and compact word lists.

Every sentence returned is a slice of the text it was given, so evidence quotes stay verbatim.
"""

from __future__ import annotations

import re

__all__ = ["sentences", "tag_value", "words"]

# A sentence ends at . ! ? followed by space or the end (so "Node.js" and "3.5" stay whole), or a newline.
_SENTENCE = re.compile(r"[^\n]+?(?:[.!?]+(?=\s|$)|(?=\n)|$)")


def sentences(text: str) -> list[str]:
    """The sentences of `text`, each a verbatim slice of it (trimmed)."""
    return [m.group(0).strip() for m in _SENTENCE.finditer(text) if m.group(0).strip()]


def tag_value(text: str) -> str:
    """A tag-safe slug: lower case letters, digits and dots; + and # spelled out; the rest '-'."""
    slug = re.sub(r"[^a-z0-9.]+", "-", text.lower().replace("+", "p").replace("#", "sharp")).strip("-.")
    return slug[:48] or "x"


def words(text: str) -> frozenset[str]:
    """A vocabulary written as whitespace-separated words (keeps long word lists compact)."""
    return frozenset(text.split())
