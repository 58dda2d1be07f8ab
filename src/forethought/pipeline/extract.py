"""Extraction: a session in, typed candidates with verbatim evidence out (LLM or heuristic).

With a model, the generic LLM extractor reads the app's kinds, one window of the session at a
time (long sessions are read whole, not truncated); a window whose call fails or never produces a
valid answer degrades to the app's heuristic extractor over its turns, and the stage says so.
Items the model marks planned or proposed are rejected with that reason (a plan is not a fact).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from forethought.apps.base import App
from forethought.domain import Evidence, Modality, Role, Session
from forethought.domain.candidates import Candidate, Rejection
from forethought.llm.base import ChatModel, ProviderError, Usage
from forethought.llm.structured import complete_structured
from forethought.prompts import extraction

__all__ = ["Extraction", "extract_candidates"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Extraction:
    candidates: list[Candidate]
    # Proposals that could not even become candidates (attributes that fail the kind's model).
    rejected: list[Rejection] = field(default_factory=list)
    mode: str = "heuristic"
    degraded: str | None = None
    usage: Usage = field(default_factory=Usage)


def extract_candidates(session: Session, app: App, model: ChatModel | None = None) -> Extraction:
    """Candidates from a session: the app's heuristic extractor, or with a model the LLM over
    windows of the session (`prompts.extraction.windows`), each window that fails degrading to
    the heuristic extractor over its own turns."""
    if model is None:
        return Extraction(candidates=app.extract(session))
    parts = extraction.windows(session)
    candidates: list[Candidate] = []
    rejected: list[Rejection] = []
    notes: list[str] = []
    usage = Usage()
    seen: set[tuple[str, str]] = set()
    failed = 0
    for part in parts:
        try:
            found, refused, note, used = _from_model(part, app, model)
        except ProviderError as exc:
            log.warning("LLM extraction failed (%s); using the heuristic extractor", exc.code)
            failed += 1
            found, refused, note, used = app.extract(part), [], None, Usage()
            notes.append(f"LLM extraction failed ({exc.code}); heuristic extractor used" + _which(part, parts))
        usage = usage + used
        rejected += refused
        if note:
            notes.append(note)
        for candidate in found:
            key = (candidate.kind, " ".join(candidate.statement.casefold().split()))
            if key not in seen:  # a window's overlap repeats what the previous one saw
                seen.add(key)
                candidates.append(candidate)
    mode = "heuristic" if failed == len(parts) else f"llm:{model.name}"
    return Extraction(candidates=candidates, rejected=rejected, mode=mode, usage=usage,
                      degraded="; ".join(notes) or None)  # fmt: skip


def _which(part: Session, parts: list[Session]) -> str:
    if len(parts) == 1:
        return ""
    return f" for turns {part.turns[0].index}-{part.turns[-1].index}"


def _from_model(
    session: Session, app: App, model: ChatModel
) -> tuple[list[Candidate], list[Rejection], str | None, Usage]:
    answer = complete_structured(
        model,
        extraction.build(session, app.kinds, app.extraction_guidance),
        extraction.ProposedItems,
        name="extraction",
        max_tokens=2048,
        wire_schema=extraction.wire_schema(app.kinds),
    )
    roles = {turn.index: turn.role for turn in session.turns}
    candidates: list[Candidate] = []
    rejected: list[Rejection] = []
    items, invalid = _items(answer.value.candidates)
    for item in items:
        candidate = Candidate(
            kind=item.kind,
            statement=item.statement.strip(),
            attributes=item.attributes,
            evidence=[
                Evidence(quote=item.quote, session_id=session.id, turn_index=item.turn, role=roles.get(item.turn))
            ],
            confidence=item.confidence,
            asserted_by=Role(item.asserted_by),
            modality=Modality(item.modality),
            extractor=f"llm:{model.name}",
        )
        if candidate.modality in (Modality.PLANNED, Modality.PROPOSED):
            why = f"{item.modality}: a plan or an unaccepted proposal is not memory"
            rejected.append(Rejection(candidate=candidate, rule="modality", reason=why))
            continue
        spec = app.kinds.get(item.kind)
        if spec is not None:
            try:
                typed = _typed(app, spec.attributes, item)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first.get("loc", ()))
                rejected.append(
                    Rejection(
                        candidate=candidate,
                        rule="attributes",
                        reason=f"attributes do not fit {item.kind}: {where}: {first.get('msg')}",
                    )
                )
                continue
            candidate = candidate.model_copy(update={"attributes": typed.model_dump(mode="json")})
        candidates.append(candidate)
    note = f"{len(invalid)} of {len(invalid) + len(items)} proposed items left out: {'; '.join(invalid[:3])}"
    return candidates, rejected, note if invalid else None, answer.usage


def _typed(app: App, model: type[BaseModel], item: extraction.ExtractedItem) -> BaseModel:
    """The item's attributes as the kind's model; when they do not fit, the app's slot filler
    fills them from the quote, keeping the fields the model did give right."""
    try:
        return model.model_validate(item.attributes)
    except ValidationError:
        filled = app.slots(item.kind, item.quote or item.statement)
        if filled is None:
            raise
        given = {k: v for k, v in item.attributes.items() if k in model.model_fields}
        try:
            return model.model_validate({**filled, **given})
        except ValidationError:
            return model.model_validate(filled)


def _items(proposed: list[dict[str, Any]]) -> tuple[list[extraction.ExtractedItem], list[str]]:
    """The proposed items that are well formed, and why each other one is not (its first error)."""
    items: list[extraction.ExtractedItem] = []
    invalid: list[str] = []
    for raw in proposed:
        try:
            items.append(extraction.ExtractedItem.model_validate(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "item"
            invalid.append(f"{where}: {first.get('msg')}")
    return items, invalid
