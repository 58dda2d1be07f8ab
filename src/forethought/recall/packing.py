"""Token estimates and packing hits into a budget."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["estimate_tokens", "pack"]

T = TypeVar("T")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate (~4 characters a token for English, never below 1 per word).

    Good enough to keep a memory block inside a budget; a model's exact count is not needed for
    that, and calling a tokenizer for each candidate would cost more than the recall itself.
    """
    return max(1, math.ceil(len(text) / 4), len(text.split()))


def pack(items: Sequence[T], cost: Callable[[T], int], budget: int, limit: int) -> tuple[list[T], int]:
    """The longest prefix-respecting selection: items in rank order while they fit the budget.

    An item that does not fit is skipped (a shorter one further down may still fit), so the
    budget is used well without reordering what ranked higher. Returns (kept, tokens used).
    """
    kept: list[T] = []
    used = 0
    for item in items:
        if len(kept) >= limit:
            break
        size = cost(item)
        if used + size > budget:
            continue
        kept.append(item)
        used += size
    return kept, used
