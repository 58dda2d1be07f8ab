"""Extraction: a session in, typed candidates with verbatim evidence out (LLM or heuristic).

With a model, the generic LLM extractor reads the app's kinds; if the provider fails or never
produces a valid answer, the stage degrades to the app's heuristic extractor and says so.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from forethought.apps.base import App
from forethought.domain import Evidence, Role, Session
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
    if model is None:
        return Extraction(candidates=app.extract(session))
    try:
        answer = complete_structured(
            model,
            extraction.build(session, app.kinds, app.extraction_guidance),
            extraction.ProposedItems,
            name="extraction",
            max_tokens=2048,
            wire_schema=extraction.wire_schema(app.kinds),
        )
    except ProviderError as exc:
        log.warning("LLM extraction failed (%s); using the heuristic extractor", exc.code)
        return Extraction(
            candidates=app.extract(session),
            degraded=f"LLM extraction failed ({exc.code}); heuristic extractor used",
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
            extractor=f"llm:{model.name}",
        )
        spec = app.kinds.get(item.kind)
        if spec is not None:
            try:
                typed = spec.attributes.model_validate(item.attributes)
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
    degraded = f"{len(invalid)} of {len(invalid) + len(items)} proposed items left out: {'; '.join(invalid[:3])}"
    return Extraction(
        candidates=candidates,
        rejected=rejected,
        mode=f"llm:{model.name}",
        usage=answer.usage,
        degraded=degraded if invalid else None,
    )


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
