"""LoCoMo retrieval through Hindsight, the two ways `bench.side_by_side` compares with the built-in stores.

- **raw Hindsight**: each turn retained straight into a bank (one bank per conversation) through
  `HttpHindsight`: the document is the turn as said with its photo's caption (the `turn` ingest's
  text), `document_id` its dia_id, `timestamp` its session's date; recall asks the bank directly
  and maps each result back to its document's dia_id (a document's best memory ranks it).
- **Forethought on the Hindsight engine**: the product's ingest (`window2+date`, as the best
  built-in variant) through `retain_many`, then the engine's index-sync queue drained until empty
  (ingest time includes that sync); recall through `HindsightEngine` (`bench.locomo.ask`).

Both turn Hindsight's graph retrieval off in their banks (`enable_graph_retrieval`), the best
offline setting measured here, unless `graph=True`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from bench.common import Stopwatch
from bench.locomo import Answer, Conversation, IngestFigures, IngestMode, K, Turn, ingest, said
from forethought import Forethought
from forethought.engines.hindsight import Document, HttpHindsight

__all__ = ["MAX_TOKENS", "RawHindsight", "ask_raw", "bank_settings", "ingest_raw", "raw_text", "sync_all"]

MAX_TOKENS = 8192  # what the engine asks for by default: far more than ten turns


def bank_settings(graph: bool) -> dict[str, bool]:
    return {"enable_graph_retrieval": graph}


def raw_text(turn: Turn) -> str:
    """What raw Hindsight holds for a turn: the turn as said, and the caption of a photo it shares."""
    photo = None if turn.caption is None else f"[{turn.speaker} shares {turn.caption}]"
    return "\n".join(p for p in [said(turn), photo] if p)


class RawHindsight:
    """One bank per conversation on the server at `base_url`."""

    def __init__(self, base_url: str, *, graph: bool = False, prefix: str = "locomo-raw") -> None:
        self.base_url = base_url
        self.graph = graph
        self.prefix = prefix
        self._banks: dict[str, HttpHindsight] = {}

    def bank(self, conversation: Conversation) -> HttpHindsight:
        api = self._banks.get(conversation.sample_id)
        if api is None:
            api = HttpHindsight(self.base_url, bank=f"{self.prefix}-{conversation.sample_id}", timeout_s=120)
            api.ensure_bank()
            api.configure(bank_settings(self.graph))
            self._banks[conversation.sample_id] = api
        return api

    def close(self) -> None:
        for api in self._banks.values():
            api.close()


def ingest_raw(raw: RawHindsight, conversations: Sequence[Conversation]) -> IngestFigures:
    start = time.perf_counter()
    turns = 0
    for conversation in conversations:
        api = raw.bank(conversation)
        for turn in conversation.turns:
            api.retain(Document(id=turn.dia_id, text=raw_text(turn), timestamp=turn.when, tags=()))
            turns += 1
    seconds = time.perf_counter() - start
    return IngestFigures("raw turns", turns, round(seconds, 2), round(turns / seconds, 1))


def ask_raw(raw: RawHindsight, conversations: Sequence[Conversation]) -> list[Answer]:
    answers: list[Answer] = []
    for conversation in conversations:
        api = raw.bank(conversation)
        api.recall("warm up", [], max_tokens=MAX_TOKENS)
        watch = Stopwatch()
        for q in conversation.questions:
            with watch.time():
                hits = api.recall(q.text, [], max_tokens=MAX_TOKENS)
            found = tuple(dict.fromkeys(h.document_id for h in hits))[:K]
            answers.append(Answer(conversation.sample_id, q.category, q.evidence, found, watch.samples_ms[-1]))
    return answers


def sync_all(memory: Forethought, *, batch: int = 256) -> int:
    """Drain the index-sync queue; returns how many jobs were done. A failure stops it (raises)."""
    done = 0
    while True:
        report = memory.sync_index(limit=batch)
        done += report.done
        if report.failed:
            raise RuntimeError(f"index sync failed ({report.failed} job(s) wait); see the Hindsight log")
        if report.pending == 0:
            return done


def ingest_engine(memory: Forethought, conversations: Sequence[Conversation], mode: IngestMode) -> IngestFigures:
    """The built-in ingest, then every queued change sent to Hindsight: timed together."""
    start = time.perf_counter()
    figures = ingest(memory, conversations, mode)
    synced = sync_all(memory)
    seconds = time.perf_counter() - start
    if synced != figures.turns:
        raise RuntimeError(f"synced {synced} of {figures.turns} records")
    return IngestFigures(f"{mode.name} + sync", figures.turns, round(seconds, 2), round(figures.turns / seconds, 1))
