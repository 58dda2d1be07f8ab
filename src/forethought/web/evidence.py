"""Evidence in context: each quote of a record shown inside the turn it was taken from.

The page marks the quote with `<mark>` by splitting the turn into plain and marked segments;
the template prints every segment escaped, so neither the turn nor the quote is ever HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from forethought.domain import Evidence, Record, Session
from forethought.errors import NotFound
from forethought.facade import Forethought, Scope

__all__ = ["Quoted", "Segment", "TurnSource", "mark", "quoted"]

CONTEXT_CHARS = 320  # of the turn shown on either side of a quote


@dataclass(frozen=True)
class Segment:
    text: str
    marked: bool = False


@dataclass(frozen=True)
class Quoted:
    """One piece of evidence: where it was said, and the source turn with the quote marked."""

    evidence: Evidence
    segments: list[Segment]
    in_turn: bool  # False when the turn is gone or no longer contains the quote


def _spans(text: str, quotes: Sequence[str]) -> list[tuple[int, int]]:
    folded = text.casefold()
    spans: list[tuple[int, int]] = []
    for quote in quotes:
        needle = quote.strip()
        if not needle:
            continue
        start = text.find(needle)
        if start < 0 and len(folded) == len(text):  # case-insensitive only where offsets agree
            start = folded.find(needle.casefold())
        if start >= 0:
            spans.append((start, start + len(needle)))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def mark(text: str, quotes: Sequence[str], *, context: int = CONTEXT_CHARS) -> list[Segment]:
    """`text` as segments with every quote found in it marked, cut to `context` characters
    around the marks (an ellipsis shows where). Without a match, the whole text, unmarked."""
    spans = _spans(text, quotes)
    if not spans:
        return [Segment(text)]
    first, last = max(spans[0][0] - context, 0), min(spans[-1][1] + context, len(text))
    segments: list[Segment] = [Segment("…")] if first > 0 else []
    at = first
    for start, end in spans:
        if start > at:
            segments.append(Segment(text[at:start]))
        segments.append(Segment(text[start:end], marked=True))
        at = end
    if last > at:
        segments.append(Segment(text[at:last]))
    if last < len(text):
        segments.append(Segment("…"))
    return segments


class TurnSource:
    """Reads sessions for evidence, each at most once per page."""

    def __init__(self, memory: Forethought, scope: Scope) -> None:
        self._memory = memory
        self._scope = scope
        self._sessions: dict[str, Session | None] = {}

    def session(self, session_id: str) -> Session | None:
        if session_id not in self._sessions:
            try:
                self._sessions[session_id] = self._memory.get_session(self._scope, session_id)
            except NotFound:
                self._sessions[session_id] = None
        return self._sessions[session_id]

    def turn_text(self, evidence: Evidence) -> str | None:
        if evidence.session_id is None or evidence.turn_index is None:
            return None
        session = self.session(evidence.session_id)
        if session is None:
            return None
        return next((t.text for t in session.turns if t.index == evidence.turn_index), None)


def quoted(record: Record, source: TurnSource) -> list[Quoted]:
    found: list[Quoted] = []
    for evidence in record.evidence:
        text = source.turn_text(evidence)
        segments = mark(text, [evidence.quote]) if text is not None else []
        if any(s.marked for s in segments):
            found.append(Quoted(evidence, segments, in_turn=True))
        else:
            found.append(Quoted(evidence, [Segment(evidence.quote, marked=True)], in_turn=False))
    return found
