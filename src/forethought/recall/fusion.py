"""Weighted reciprocal rank fusion, with ties that share a rank.

Each signal ranks some records; a record earns `weight / (rrf_k + rank)` from every signal that
ranked it, and the sum orders the fused list. Two refinements over the textbook formula:

- Records a signal scores *equally* share the average of the ranks they occupy. The order inside
  a tie is arbitrary (storage order), and an arbitrary order must not decide a ranking.
- A tie that reaches the end of a list cut at its limit earns nothing: it may go on far past the
  cut (a name every record of a space carries), so its members are not distinguished from the
  many records that were cut, and rewarding the few that happened to be listed would be noise.
  (They stay candidates; other signals may still rank them.)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["rrf", "shared_ranks"]


def shared_ranks(scores: Sequence[float], *, cut: bool) -> list[float | None]:
    """Fractional ranks for scores sorted best first; None for a tie dropped at a cut list's end.

    `[9, 7, 7, 3]` → `[1, 2.5, 2.5, 4]`; with `cut=True`, `[9, 7, 3, 3]` → `[1, 2, None, None]`.
    """
    ranks: list[float | None] = []
    start = 0
    while start < len(scores):
        end = start
        while end + 1 < len(scores) and scores[end + 1] == scores[start]:
            end += 1
        tie = end - start + 1
        dropped = cut and end == len(scores) - 1 and tie > 1
        rank = None if dropped else (start + end) / 2 + 1
        ranks.extend([rank] * tie)
        start = end + 1
    return ranks


def rrf(ranks: dict[str, float | None], weight: float, rrf_k: float) -> dict[str, float]:
    """Each record's reciprocal-rank share from one signal (records without a rank earn nothing)."""
    return {rid: weight / (rrf_k + rank) for rid, rank in ranks.items() if rank is not None and weight > 0}
