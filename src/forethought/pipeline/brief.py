"""Brief: selection before generation. Recall current records for a task, keep at most `limit` that
apply (each with its reason), list the rest as filtered (with theirs), and render the memory block.

Applicability, per record: the app's rule-based `applicability()` where it answers; else the LLM judge
(`prompts.applicability`) given a model; else, or if the model fails (`degraded`), the heuristic
(`applies.py`). For an app with a learned relevance model (`App.relevance`, the project app), in
heuristic mode the decision is its calibrated probability instead, precision first: a record is
briefed when it reaches the model's threshold, with the rule's or heuristic's reason beside the
score, and a task nothing reaches gets "nothing applies" rather than padding (`relevance.py`).

Room left under `limit` may go to verbatim excerpts of past sessions that no briefed record
cites (`excerpts.py`, at most `max_excerpts`): labelled unreviewed and dated, never rules.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

import numpy as np

from forethought.apps.areas import Area
from forethought.apps.base import Applicability
from forethought.domain import Record, Role, Status, limits
from forethought.domain.limits import MAX_QUERY
from forethought.embed.base import Embedder
from forethought.embed.cache import embedded, remember
from forethought.errors import BackendError, InvalidInput, ModelUnavailable
from forethought.llm.base import ChatModel, ProviderError, Usage
from forethought.llm.structured import complete_structured
from forethought.memory import Memory, Scope
from forethought.pipeline.applies import heuristic_applicability
from forethought.pipeline.excerpts import find_excerpts
from forethought.pipeline.relevance import feature_rows, judge_embedder, relevance_model
from forethought.pipeline.reports import Brief, BriefItem, Excerpt, FilteredItem
from forethought.prompts import applicability as prompt
from forethought.prompts import memory_block
from forethought.recall.packing import estimate_tokens
from forethought.recall.results import RecallHit
from forethought.store.base import RecordFilter, RecordVectors
from forethought.text.identifiers import strong_terms

__all__ = [
    "build_brief",
    "heuristic_applicability",
    "memory_tokens",
    "query_for",
]

log = logging.getLogger(__name__)


def query_for(text: str) -> str:
    """A recall query for a long text: its identifiers first, then its opening, within the limit.

    Cut at the last word boundary inside the limit; a text with none there (one 200,000-character
    token) is cut at the limit itself, so a non-blank text never gives an empty query."""
    text = " ".join(text.split())
    if len(text) <= MAX_QUERY:
        return text
    head = " ".join(sorted(strong_terms(text)))[: MAX_QUERY // 2].strip()
    cut = f"{head} {text}"[:MAX_QUERY] if head else text[:MAX_QUERY]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut


def memory_tokens(memory: Memory, scope: Scope) -> int:
    """Tokens of every current record's statement: what loading all of memory would cost.
    Summed by the store, so a space of a million records costs one query, not a million rows."""
    space = memory.space_of(scope, create=False)
    if space is None:
        return 0
    return memory.store.records.statement_tokens(space.id, RecordFilter())


def build_brief(
    memory: Memory,
    scope: Scope,
    task: str,
    *,
    model: ChatModel | None = None,
    limit: int = 5,
    file_paths: Sequence[str] = (),
    recall_k: int = 20,
    max_excerpts: int = 3,
) -> Brief:
    """The records that apply to `task` (at most `limit`), the rest with reasons, past-session
    excerpts in the room left (at most `max_excerpts`), and the block."""
    if limit < 1:
        raise InvalidInput("limit: must be at least 1")
    if max_excerpts < 0:
        raise InvalidInput("max_excerpts: must not be negative")
    file_paths = limits.check_file_paths(file_paths)
    app = scope.app
    start = time.perf_counter()
    timings: dict[str, float] = {}
    has_records = bool(memory.list_records(scope, limit=1))
    if not has_records and not _has_sessions(memory, scope):
        timings["total"] = elapsed_ms(start)
        return Brief(task=task, note="This space holds no current memory: nothing was recalled.", timings_ms=timings)
    query = query_for(task)
    if has_records and app.relevance is not None and model is None:
        _embed_ahead(memory, [query, " ".join([task, *file_paths])])
    hits = memory.recall(scope, query, k=recall_k).hits if has_records else []
    timings["recall"] = elapsed_ms(start)
    verdicts: dict[str, Applicability] = {}
    rules: dict[str, Applicability | None] = {}  # the app rule's own verdicts, for the relevance model
    filtered: list[FilteredItem] = []
    open_records: list[Record] = []
    for hit in hits:
        record = hit.record
        if record.status is not Status.ACTIVE:
            filtered.append(FilteredItem(record=record, reason=f"{record.status.value}: never briefed"))
        elif "injection" in record.flags:
            filtered.append(FilteredItem(record=record, reason="flagged as instruction-like text: kept out"))
        elif (rule := rules.setdefault(record.id, app.applicability(task, record))) is not None:
            verdicts[record.id] = Applicability(applies=rule.applies, reason=f"{app.name} rule: {rule.reason}")
        else:
            open_records.append(record)
    judge_start = time.perf_counter()
    mode, degraded, usage = _judge(model, task, open_records, file_paths, verdicts, app.areas)
    if mode == "heuristic" and app.relevance is not None:
        hits = _by_relevance(memory, scope, task, file_paths, hits, verdicts, rules)
    timings["judge"] = elapsed_ms(judge_start)
    used: list[BriefItem] = []
    for hit in hits:
        if (verdict := verdicts.get(hit.record.id)) is None:
            continue
        if not verdict.applies:
            filtered.append(FilteredItem(record=hit.record, reason=f"not applicable: {verdict.reason}"))
        elif len(used) >= limit:
            filtered.append(FilteredItem(record=hit.record, reason=f"applies ({verdict.reason}) but over the limit"))
        else:
            used.append(BriefItem(record=hit.record, reason=verdict.reason, score=hit.score))
    excerpt_start = time.perf_counter()
    slots = min(max_excerpts, limit - len(used))
    retired = _retired(memory, scope, task, recall_k) if slots > 0 and has_records else []
    briefed = [item.record for item in used]
    excerpts = find_excerpts(memory, scope, task, slots=slots, file_paths=file_paths, briefed=briefed, retired=retired)
    timings["excerpts"] = elapsed_ms(excerpt_start)
    block = memory_block.render([item.record for item in used], excerpts=[_quoted(e) for e in excerpts])
    count_start = time.perf_counter()
    everything = memory_tokens(memory, scope)
    timings["all_memory"] = elapsed_ms(count_start)
    timings["total"] = elapsed_ms(start)
    return Brief(
        task=task,
        used=used,
        filtered=filtered,
        excerpts=excerpts,
        block=block,
        block_tokens=estimate_tokens(block) if block else 0,
        all_memory_tokens=everything,
        recalled=has_records,
        mode=mode,
        degraded=degraded,
        note=_note(used, excerpts),
        usage=usage,
        timings_ms=timings,
    )


def _retired(memory: Memory, scope: Scope, task: str, k: int) -> list[Record]:
    """Superseded, retracted and rejected records about the task: their turns are not quoted."""
    gone = (Status.SUPERSEDED, Status.RETRACTED, Status.REJECTED)
    if not memory.list_records(scope, statuses=gone, limit=1):  # nothing retired: no recall to run
        return []
    return [hit.record for hit in memory.recall(scope, query_for(task), k=k, statuses=gone).hits]


def _has_sessions(memory: Memory, scope: Scope) -> bool:
    space = memory.space_of(scope, create=False)
    return space is not None and memory.store.sessions.count(space.id) > 0


def _quoted(excerpt: Excerpt) -> memory_block.Quoted:
    who = excerpt.speaker or ("the person" if excerpt.role is Role.USER else "the agent")
    return memory_block.Quoted(excerpt.occurred_at.date(), who, excerpt.quote)


def _note(used: Sequence[BriefItem], excerpts: Sequence[Excerpt]) -> str | None:
    if used:
        return None
    if excerpts:
        return (
            f"No reviewed record applies to this task; {len(excerpts)} unreviewed excerpt"
            f"{'s' if len(excerpts) > 1 else ''} from past sessions instead."
        )
    return "No recalled record applies to this task."


def _judge(
    model: ChatModel | None,
    task: str,
    records: list[Record],
    file_paths: Sequence[str],
    verdicts: dict[str, Applicability],
    areas: Sequence[Area],
) -> tuple[str, str | None, Usage]:
    """Fill `verdicts` for `records`: the model's where it answers, the heuristic's elsewhere.
    Returns (mode, degraded, usage)."""
    mode, degraded, usage = "heuristic", None, Usage()
    if model is not None and records:
        by_handle = {r.handle: r for r in records}
        messages = prompt.build(prompt.ApplicabilityContext(task, records))
        try:
            answer = complete_structured(model, messages, prompt.Verdicts)
        except ProviderError as exc:
            degraded = f"llm:{model.name} failed ({exc.code}): {str(exc)[:200]}; used the heuristic judge"
        else:
            mode, usage = f"llm:{model.name}", answer.usage
            for said in answer.value.verdicts:  # a handle that was not provided is ignored
                record = by_handle.get(said.handle.strip().strip("[]").lower())
                if record is not None and record.id not in verdicts:
                    reason = " ".join(said.reason.split())[:300] or "no reason given"
                    verdicts[record.id] = Applicability(applies=said.applies, reason=f"llm: {reason}")
    for record in records:
        if record.id not in verdicts:
            verdict = heuristic_applicability(task, record, areas=areas, file_paths=file_paths)
            if mode != "heuristic":  # the model gave no verdict on this one
                verdict = Applicability(applies=verdict.applies, reason=f"heuristic: {verdict.reason}")
            verdicts[record.id] = verdict
    return mode, degraded, usage


def _by_relevance(
    memory: Memory,
    scope: Scope,
    task: str,
    file_paths: Sequence[str],
    hits: list[RecallHit],
    verdicts: dict[str, Applicability],
    rules: dict[str, Applicability | None],
) -> list[RecallHit]:
    """Re-decide the judged hits by the app's calibrated relevance (most probable first); the
    rule's or heuristic's reason stays as the explanation. Without the model, nothing changes."""
    app = scope.app
    judged = [h for h in hits if h.record.id in verdicts]
    try:
        name, sha256 = app.relevance or ("", "")
        model = relevance_model(name, sha256)
        records = [h.record for h in judged]
        embedder = judge_embedder()
        stored = _stored_vectors(memory, scope, records, embedder.name)
        _keep_statements(embedder, records, stored)
        rows = feature_rows(task, file_paths, records, app, embedder, [rules.get(r.id) for r in records], stored)
    except ModelUnavailable as exc:
        log.warning("relevance model unavailable, using the rule and heuristic verdicts: %s", exc)
        return hits
    probabilities = model.probabilities(rows)
    chosen = model.chosen(probabilities)
    for i, hit in enumerate(judged):
        p, why = float(probabilities[i]), verdicts[hit.record.id].reason
        if i in chosen:
            verdicts[hit.record.id] = Applicability(applies=True, reason=f"{why} (relevance {p:.2f})")
        else:
            bar = max(model.threshold, float(probabilities.max()) - model.margin)
            verdicts[hit.record.id] = Applicability(applies=False, reason=f"relevance {p:.2f} below {bar:.2f}: {why}")
    order = {judged[i].record.id: rank for rank, i in enumerate(chosen)}
    return sorted(hits, key=lambda h: order.get(h.record.id, len(order)))


def _embed_ahead(memory: Memory, texts: list[str]) -> None:
    """Embed recall's query and the relevance features' task text in one batch, when one model
    serves both: each is then found in the vector cache (one model run, not two)."""
    if memory.embedder is None or memory.embedder is not judge_embedder():
        return
    try:
        embedded(memory.embedder, texts)
    except BackendError:  # recall and the features each meet the failure on their own
        return


def _stored_vectors(memory: Memory, scope: Scope, records: Sequence[Record], model: str) -> dict[str, RecordVectors]:
    """The records' vectors as the store keeps them, when the store's embedder is the `model` the
    features are computed with (else none: vectors of another model are not comparable)."""
    space = memory.space_of(scope, create=False)
    if memory.embedder is None or memory.embedder.name != model or space is None or not records:
        return {}
    try:
        return memory.store.search.record_vectors(space.id, [r.id for r in records])
    except BackendError as exc:  # the features are still computed, by embedding what is missing
        log.warning("stored vectors unreadable, embedding them again: %s", exc)
        return {}


def _keep_statements(embedder: Embedder, records: Sequence[Record], stored: dict[str, RecordVectors]) -> None:
    """Hand the stored statement vectors to the features' model cache: past-session excerpts compare
    passages with the briefed statements by that model, and then run it on none of them."""
    kept = [(r.statement, v.statement) for r in records if (v := stored.get(r.id)) and v.statement is not None]
    if kept:
        remember(embedder, [t for t, _ in kept], np.stack([v for _, v in kept]))


def elapsed_ms(start: float) -> float:
    """Milliseconds since `start` (a `time.perf_counter()` reading), for `timings_ms`."""
    return round((time.perf_counter() - start) * 1000, 3)
