"""A stage-aware fake model: answers each pipeline prompt the way a well-behaved LLM would."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from forethought.llm.base import Message

Draft = Callable[[Sequence[Message]], str]


def stage_of(messages: Sequence[Message]) -> str:
    system = messages[0].content if messages and messages[0].role == "system" else ""
    if system.startswith("You extract durable facts"):
        return "extract"
    if system.startswith("You select memory"):
        return "applicability"
    if system.startswith("You review a draft"):
        return "judge"
    if system.startswith("You answer questions using only the records"):
        return "ask"
    return "generate"


def router(draft: Draft | str = "Noted.", *, extract: str = '{"candidates": []}') -> Callable[[Sequence[Message]], str]:
    """Applicability: everything applies; judge: no findings; extraction: `extract`; generation: `draft`."""

    def answer(messages: Sequence[Message]) -> str:
        stage = stage_of(messages)
        if stage == "extract":
            return extract
        if stage == "applicability":
            handles = sorted(set(re.findall(r"\[([0-9a-z]{8})\]", messages[-1].content)))
            return json.dumps(
                {"verdicts": [{"handle": h, "applies": True, "reason": "it is about this"} for h in handles]}
            )
        if stage == "judge":
            return '{"findings": []}'
        if stage == "ask":
            return '{"answer": "I do not know.", "citations": []}'
        return draft if isinstance(draft, str) else draft(messages)

    return answer
