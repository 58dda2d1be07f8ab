"""Brief: selection before generation. Recall current records for a task, keep at most `limit` that
apply (each with its reason), list the rest as filtered (with theirs), and render the memory block.

Applicability, per record: the app's rule-based `applicability()` where it answers; else the LLM judge
(`prompts.applicability`) given a model; else, or if the model fails (`degraded`), the heuristic.

The heuristic judge is deterministic and refuses topical similarity alone (recall already found the
record similar; that is why it is here). A record applies when it and the task share enough
*specific* evidence, weighed as:
- an identifier or proper name (`PrismaClient`, `localStorage`, `Stripe`): 2 each;
- a content word outside `GENERIC_WORDS`, compared after light stemming: 1 each;
- an area of work both touch (the app's `areas`: auth, ui, database, ...): 2;
- a record tag (or its part after `:`) the task or a file path names: 2;
- a file path part the record names (`api`, `route.ts`), or the record naming the path: 2;
and applies at a weight of `MIN_WEIGHT` (2): one identifier, two words, one shared area. A record
tagged `always` or `scope:global` applies to every task.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from functools import lru_cache

from forethought.apps.areas import Area
from forethought.apps.base import Applicability
from forethought.domain import Record, Status
from forethought.domain.limits import MAX_QUERY
from forethought.errors import InvalidInput
from forethought.llm.base import ChatModel, ProviderError, Usage
from forethought.llm.structured import complete_structured
from forethought.memory import Memory, Scope
from forethought.pipeline.reports import Brief, BriefItem, FilteredItem
from forethought.prompts import applicability as prompt
from forethought.prompts import memory_block
from forethought.recall.packing import estimate_tokens
from forethought.store.base import RecordFilter
from forethought.text.identifiers import strong_terms
from forethought.text.words import GENERIC_WORDS, salient_words, word_key, word_keys

__all__ = [
    "build_brief",
    "heuristic_applicability",
    "memory_tokens",
    "query_for",
]

MIN_WEIGHT = 2
ALWAYS_TAGS = frozenset({"always", "scope:global"})


def _path_parts(paths: Sequence[str]) -> set[str]:
    parts: set[str] = set()
    for path in paths:
        for piece in re.split(r"[/\\]+", path.lower()):
            parts.update(p for p in re.split(r"[.\-_]+", piece) if len(p) > 2)
    return {word_key(p) for p in parts} - GENERIC_WORDS - {"src", "lib", "app", "index", "main", "tsx", "jsx"}


@lru_cache(maxsize=64)
def _area_keys(areas: tuple[Area, ...]) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each area's words, stemmed as a task's are (an app's areas are a constant: cached)."""
    return tuple((area.name, word_keys(" ".join(area.words))) for area in areas)


def heuristic_applicability(
    task: str, record: Record, *, areas: Sequence[Area], file_paths: Sequence[str] = ()
) -> Applicability:
    """Whether `record` applies to `task`, by shared specific evidence (see the module doc);
    `areas` are the app's areas of work."""
    tags = {t.lower() for t in record.tags}
    if tags & ALWAYS_TAGS:
        return Applicability(applies=True, reason="marked as applying to every task")
    text = " ".join([record.statement, *(str(v) for v in record.attributes.values() if isinstance(v, str))])
    reasons: list[str] = []
    weight = 0
    shared_terms = sorted(strong_terms(task) & strong_terms(text))
    if shared_terms:
        weight += 2 * len(shared_terms)
        reasons.append("names " + ", ".join(f"`{t}`" for t in shared_terms[:3]))
    task_words, record_words = salient_words(task), salient_words(text)
    shared_words = sorted(task_words.keys() & record_words.keys() - {word_key(t) for t in shared_terms})
    if shared_words:
        weight += len(shared_words)
        reasons.append("shares " + ", ".join(f"'{task_words[w]}'" for w in shared_words[:4]))
    vocabularies = _area_keys(tuple(areas))
    touched = [(name, task_words.keys() & vocab, record_words.keys() & vocab) for name, vocab in vocabularies]
    if common := [(name, mine, theirs) for name, mine, theirs in touched if mine and theirs]:
        weight += 2
        name, mine, theirs = common[0]
        seen = sorted({task_words[k] for k in mine} | {record_words[k] for k in theirs})
        reasons.append(f"both concern {name} ({', '.join(seen[:3])})")
    paths = _path_parts(file_paths)
    tag_words = {word_key(t.rsplit(":", 1)[-1]) for t in tags}
    if tag_hits := sorted(tag_words & (task_words.keys() | paths)):
        weight += 2
        reasons.append("tagged " + ", ".join(tag_hits[:2]))
    path_hits = sorted(paths & record_words.keys()) or [p for p in file_paths if p and p in record.statement]
    if path_hits:
        weight += 2
        reasons.append("touches the files (" + ", ".join(path_hits[:2]) + ")")
    if weight >= MIN_WEIGHT:
        return Applicability(applies=True, reason="; ".join(reasons))
    if reasons:
        return Applicability(applies=False, reason=f"only {reasons[0]}; one common word is not enough")
    return Applicability(applies=False, reason="similar in wording only: no term, area or file in common")


def query_for(text: str) -> str:
    """A recall query for a long text: its identifiers first, then its opening, within the limit."""
    text = " ".join(text.split())
    if len(text) <= MAX_QUERY:
        return text
    head = " ".join(sorted(strong_terms(text)))[: MAX_QUERY // 2]
    return f"{head} {text}"[:MAX_QUERY].rsplit(" ", 1)[0]


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
) -> Brief:
    """The records that apply to `task` (at most `limit`), the rest with reasons, and the block."""
    if limit < 1:
        raise InvalidInput("limit: must be at least 1")
    app = scope.app
    start = time.perf_counter()
    timings: dict[str, float] = {}
    if not memory.list_records(scope, limit=1):
        timings["total"] = elapsed_ms(start)
        return Brief(task=task, note="This space holds no current memory: nothing was recalled.", timings_ms=timings)
    hits = memory.recall(scope, query_for(task), k=recall_k).hits
    timings["recall"] = elapsed_ms(start)
    verdicts: dict[str, Applicability] = {}
    filtered: list[FilteredItem] = []
    open_records: list[Record] = []
    for hit in hits:
        record = hit.record
        if record.status is not Status.ACTIVE:
            filtered.append(FilteredItem(record=record, reason=f"{record.status.value}: never briefed"))
        elif "injection" in record.flags:
            filtered.append(FilteredItem(record=record, reason="flagged as instruction-like text: kept out"))
        elif (rule := app.applicability(task, record)) is not None:
            verdicts[record.id] = Applicability(applies=rule.applies, reason=f"{app.name} rule: {rule.reason}")
        else:
            open_records.append(record)
    judge_start = time.perf_counter()
    mode, degraded, usage = _judge(model, task, open_records, file_paths, verdicts, app.areas)
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
    block = memory_block.render([item.record for item in used])
    count_start = time.perf_counter()
    everything = memory_tokens(memory, scope)
    timings["all_memory"] = elapsed_ms(count_start)
    timings["total"] = elapsed_ms(start)
    return Brief(
        task=task,
        used=used,
        filtered=filtered,
        block=block,
        block_tokens=estimate_tokens(block) if block else 0,
        all_memory_tokens=everything,
        recalled=True,
        mode=mode,
        degraded=degraded,
        note=None if used else "No recalled record applies to this task.",
        usage=usage,
        timings_ms=timings,
    )


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


def elapsed_ms(start: float) -> float:
    """Milliseconds since `start` (a `time.perf_counter()` reading), for `timings_ms`."""
    return round((time.perf_counter() - start) * 1000, 3)
