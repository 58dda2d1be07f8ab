"""Tag-safe slugs: what a free-text name becomes inside a tag (`skill:csharp`, `company:acme-corp`)."""

from __future__ import annotations

import re

__all__ = ["tag_value"]


def tag_value(text: str) -> str:
    """A tag-safe slug: lower case letters, digits and dots; + and # spelled out; the rest '-'."""
    slug = re.sub(r"[^a-z0-9.]+", "-", text.lower().replace("+", "p").replace("#", "sharp")).strip("-.")
    return slug[:48] or "x"
