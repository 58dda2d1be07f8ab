"""Ask (reflect): an answer drawn only from memory, citing the records it relies on by handle.

Current records and superseded ones are recalled separately; superseded ones are always presented
as history ("previously ..., until DATE"), never as a current rule. Without a model the answer is
extractive: the relevant records themselves (the heuristic judge decides relevance, as for a brief),
current first, labelled as such. With a model, the recalled records go to `prompts.ask` as
delimited data; handles the answer cites that were not provided are removed, and an answer left
citing nothing it was given is replaced by the extractive one (`degraded` says why), as is any
answer when the provider fails. With nothing relevant the answer says so plainly.
"""

from __future__ import annotations

import re
import time

from forethought.apps.base import App
from forethought.domain import Record, Status, handle_for, limits
from forethought.llm.base import ChatModel, ProviderError, Usage
from forethought.llm.structured import complete_structured
from forethought.memory import Memory, Scope
from forethought.pipeline.applies import heuristic_applicability
from forethought.pipeline.brief import elapsed_ms
from forethought.pipeline.reports import Answer
from forethought.prompts import ask as prompt
from forethought.prompts.ask import NO_MEMORY

__all__ = ["NO_MEMORY", "ask"]

_CITED = re.compile(r"\[([0-9a-zA-Z]{8})\]")
EXTRACTIVE_LIMIT = 5  # records quoted per group (current, history) in an extractive answer


def ask(
    memory: Memory,
    scope: Scope,
    question: str,
    *,
    model: ChatModel | None = None,
    k: int = 8,
) -> Answer:
    """Answer `question` from memory only, citing handles; superseded records as history."""
    question = limits.check_query(question)
    app = scope.app
    start = time.perf_counter()
    timings: dict[str, float] = {}
    if not memory.list_records(scope, statuses=(Status.ACTIVE, Status.SUPERSEDED), limit=1):
        timings["total"] = elapsed_ms(start)
        return Answer(question=question, text=NO_MEMORY, timings_ms=timings)
    current = [h.record for h in memory.recall(scope, question, k=k).hits if h.record.status is Status.ACTIVE]
    history = [h.record for h in memory.recall(scope, question, k=k, statuses=(Status.SUPERSEDED,)).hits]
    history = [r for r in history if r.status is Status.SUPERSEDED]
    timings["recall"] = elapsed_ms(start)
    answer: Answer | None = None
    degraded, usage = None, Usage()
    if model is not None and (current or history):
        step = time.perf_counter()
        try:
            answer, usage = _llm_answer(model, question, current, history)
            if answer is None:
                degraded = f"llm:{model.name} cited no record it was given; answered from the records instead"
        except ProviderError as exc:
            degraded = f"llm:{model.name} failed ({exc.code}): {str(exc)[:200]}; answered from the records instead"
        timings["generate"] = elapsed_ms(step)
    if answer is None:
        relevant = [r for r in current if _relevant(app, question, r)][:EXTRACTIVE_LIMIT]
        before = [r for r in history if _relevant(app, question, r)][:EXTRACTIVE_LIMIT]
        answer = _extractive(question, relevant, before)
    timings["total"] = elapsed_ms(start)
    return answer.model_copy(update={"degraded": degraded, "usage": usage, "timings_ms": timings})


def _relevant(app: App, question: str, record: Record) -> bool:
    rule = app.applicability(question, record)
    return (rule or heuristic_applicability(question, record, areas=app.areas)).applies


def _extractive(question: str, current: list[Record], history: list[Record]) -> Answer:
    if not current and not history:
        return Answer(question=question, text=NO_MEMORY)
    lines = ["From memory (the records themselves; no language model was used):"]
    lines += [f"- {r.statement} [{r.handle}] ({r.kind}, since {r.occurred_at.date().isoformat()})" for r in current]
    if history:
        lines.append("Previously (superseded: history, no longer current):")
        lines += [f"- {_as_history(r)}" for r in history]
    records = [*current, *history]
    return Answer(question=question, text="\n".join(lines), citations=[r.handle for r in records], records=records)


def _as_history(record: Record) -> str:
    until = record.valid_to.date().isoformat() if record.valid_to else "a later change"
    replaced = f"; replaced by [{handle_for(record.superseded_by)}]" if record.superseded_by else ""
    start = record.occurred_at.date().isoformat()
    return f"{record.statement} [{record.handle}] ({record.kind}, from {start} until {until}{replaced})"


def _llm_answer(
    model: ChatModel, question: str, current: list[Record], history: list[Record]
) -> tuple[Answer | None, Usage]:
    """The model's answer with only provided handles cited (None when it cites none of them)."""
    messages = prompt.build(prompt.AskContext(question, current, history))
    reply = complete_structured(model, messages, prompt.AskReply, max_tokens=800)
    mode = f"llm:{model.name}"
    text = reply.value.answer.strip()
    if not text or " ".join(text.split()).rstrip(".").lower() == NO_MEMORY.rstrip(".").lower():
        return Answer(question=question, text=NO_MEMORY, mode=mode), reply.usage
    provided = {r.handle: r for r in [*current, *history]}

    def keep(match: re.Match[str]) -> str:
        return match.group(0) if match.group(1).lower() in provided else ""

    text = re.sub(r"[ \t]+([.,;:])", r"\1", _CITED.sub(keep, text)).strip()
    cited = [h.strip().strip("[]").lower() for h in reply.value.citations]
    cited += [m.lower() for m in _CITED.findall(text)]
    handles = [h for h in dict.fromkeys(cited) if h in provided]
    if not handles:
        return None, reply.usage
    records = sorted((provided[h] for h in handles), key=lambda r: r.status is not Status.ACTIVE)
    answer = Answer(question=question, text=text, citations=[r.handle for r in records], records=records, mode=mode)
    return answer, reply.usage
