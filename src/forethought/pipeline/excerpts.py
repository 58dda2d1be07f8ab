"""Past-session excerpts: what was said about a task that no reviewed record holds.

Extraction misses things; memory should not be hostage to it. When a brief has room left, it may
quote a few passages of past sessions verbatim, labelled unreviewed and dated, never as rules:

1. keyword search over the person's and agent's turns of the space (`SessionStore.search_turns`)
   with the task's content words and the words of its file names finds the sessions that talked
   about it (the best `SESSIONS`, in the order their best turn ranks);
2. every sentence those sessions' people and agents said is a candidate (at most
   `SENTENCES_PER_SESSION` each, those sharing task words and near a matching turn first) — a
   rule is often stated turns away from the words of the symptom;
3. each candidate is scored by the sentence judge in one pass: MiniLM similarity to the task plus
   `DURABLE_WEIGHT` × how likely the sentence states a standing rule, preference or failed
   attempt (one that decided something is worth more than one that only named the symptom);
4. at most `PER_SESSION` passages per session, at most `slots` in all, each at or above
   `MIN_SCORE`; never a turn a briefed record cites (the record speaks for it) or a retired one
   does (memory has decided on it), nor a passage overtaken by something newer on the same topic
   (a briefed record or another passage at least `SAME_TOPIC` similar: an amended rule's old
   wording is not quoted beside the new). A turn holding instruction-like text (the validator's
   injection detector) is never quoted at all: an excerpt is unreviewed, so it fails closed. Nor
   is a rule file or an ADR: each of its rules is a record already. A passage is its sentence
   with the next and the previous one where they fit in `MAX_CHARS`, a verbatim slice of the
   stored, scrubbed turn.

Calibrated on the tuning bug-fix set (`bench/tuning/bugfix-v1`): see docs/benchmarks.md.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath

import numpy as np
import numpy.typing as npt

from forethought.domain import Record, Session, Turn
from forethought.domain.documents import ITEMISED_SOURCES
from forethought.embed.cache import embedded, remember
from forethought.errors import ModelUnavailable, NotFound
from forethought.judge import shared_judge
from forethought.judge.acts import DURABLE
from forethought.memory import Memory, Scope
from forethought.pipeline.quotable import DURABLE_WEIGHT, MAX_CHARS, MIN_SCORE, judged_text, passage_span, quotable
from forethought.pipeline.reports import Excerpt
from forethought.store.types import quote_digest
from forethought.text.words import salient_words, word_key, words

__all__ = ["MAX_CHARS", "MIN_SCORE", "find_excerpts"]

log = logging.getLogger(__name__)

Array = npt.NDArray[np.float32]

SAME_TOPIC = 0.45  # two statements this similar are about the same thing: the newer one stands
SESSIONS = 3
PER_SESSION = 3
SENTENCES_PER_SESSION = 40
SEARCHED_TURNS = 24
MAX_QUERY_WORDS = 24


@dataclass(frozen=True)
class _Passage:
    session: Session
    turn: Turn
    text: str  # what is judged: one sentence
    start: int  # what is quoted: turn.text[start:end], the sentence with the neighbours that fit
    end: int
    offset: int  # where the judged sentence starts in the turn (its stored vector's key)

    @property
    def quote(self) -> str:
        return self.turn.text[self.start : self.end]


def find_excerpts(
    memory: Memory,
    scope: Scope,
    task: str,
    *,
    slots: int,
    file_paths: Sequence[str] = (),
    briefed: Sequence[Record] = (),
    retired: Sequence[Record] = (),
) -> list[Excerpt]:
    """At most `slots` verbatim passages of past sessions about `task`, best first. Turns that
    `briefed` records (in the brief) or `retired` ones (superseded, retracted, rejected: memory
    has decided on them) cite are never quoted, nor a passage something newer on the same topic
    — a briefed record or another passage — has overtaken (`_overtaken`). Without the sentence
    judge's model nothing is quoted (logged; never a guess)."""
    space = memory.space_of(scope, create=False) if slots > 0 else None
    keys = _query_words(task, file_paths) if space is not None else {}
    if space is None or not keys:
        return []
    hits = memory.store.sessions.search_turns(space.id, list(keys.values())[:MAX_QUERY_WORDS], SEARCHED_TURNS)
    near: dict[str, list[int]] = {}  # session id -> its matching turns, sessions best first
    for hit in hits:
        near.setdefault(hit.session_id, []).append(hit.turn_index)
    skip = {(e.session_id, e.turn_index) for r in (*briefed, *retired) for e in r.evidence}
    passages: list[_Passage] = []
    for session_id in list(near)[:SESSIONS]:
        try:
            session = memory.store.sessions.get(space.id, session_id)
        except NotFound:  # erased meanwhile: nothing to quote
            continue
        if session.source in ITEMISED_SOURCES:  # a rule file or an ADR: its rules are records already
            continue
        passages += _candidates(session, near[session_id], set(keys), skip)
    if not passages:
        return []
    try:
        _recall_vectors(memory, space.id, passages)
        scores, vectors, records = _scores(task, file_paths, passages, [r.statement for r in briefed])
    except ModelUnavailable as exc:
        log.warning("no past-session excerpts: %s", exc)
        return []
    eligible = [i for i, score in enumerate(scores) if score >= MIN_SCORE]
    if len(eligible) > 1 or (eligible and briefed):  # topics are compared on the whole quoted passage
        quoted = _unit(embedded(shared_judge().embedder, [passages[i].quote for i in eligible]))
        vectors = np.zeros((len(passages), quoted.shape[1]), dtype=np.float32)
        vectors[eligible] = quoted
    fresh = [i for i in eligible if not _overtaken(i, eligible, passages, vectors, records, briefed)]
    return _chosen([passages[i] for i in fresh], [scores[i] for i in fresh], slots)


def _query_words(task: str, file_paths: Sequence[str]) -> dict[str, str]:
    """Content words of the task and of its files' names (`auth_token.py` → auth, token), by key."""
    found = salient_words(task)
    for path in file_paths:
        stem = PurePosixPath(path.replace("\\", "/")).stem
        for word in words(stem.replace("_", " ").replace("-", " ")):
            if len(word) > 2 and not word.isdigit():
                found.setdefault(word_key(word), word)
    return found


def _candidates(
    session: Session, matched: list[int], keys: set[str], skip: set[tuple[str | None, int | None]]
) -> list[_Passage]:
    """The session's sentences worth judging, those sharing task words and near a match first."""
    found: list[tuple[int, int, _Passage]] = []
    for turn in session.turns:
        if (session.id, turn.index) in skip:
            continue
        sentences, positions = quotable(turn)  # instruction-like text is never quoted to a model
        distance = min(abs(turn.index - i) for i in matched) if positions else 0
        for n in positions:
            text = judged_text(sentences[n])
            start, end = passage_span(sentences, n)
            shared = len({word_key(w) for w in words(text)} & keys)
            found.append((-shared, distance, _Passage(session, turn, text, start, end, sentences[n].start)))
    found.sort(key=lambda row: (row[0], row[1]))
    return [row[2] for row in found[:SENTENCES_PER_SESSION]]


def _recall_vectors(memory: Memory, space_id: str, passages: list[_Passage]) -> None:
    """Hand the judge's model the vectors stored with the passages' turns at capture (sentences,
    and the passages around those that may be quoted), where they were made of the same text, so
    judging and comparing them runs no model (the rest is embedded as before)."""
    embedder = shared_judge().embedder
    stored = memory.store.sessions.sentence_vectors(
        space_id, list(dict.fromkeys(p.session.id for p in passages)), embedder.name
    )
    texts, rows = [], []
    for p in passages:
        kept = stored.get((p.session.id, p.turn.index, p.offset))
        if kept is None:
            continue
        if kept.digest == quote_digest(p.text) and kept.vector.shape == (embedder.dim,):
            texts.append(p.text)
            rows.append(kept.vector)
        vector = kept.passage_vector
        if vector is not None and kept.passage_digest == quote_digest(p.quote) and vector.shape == (embedder.dim,):
            texts.append(p.quote)
            rows.append(vector)
    if rows:
        remember(embedder, texts, np.stack(rows))


def _unit(rows: Array) -> Array:
    out: Array = (rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)).astype(np.float32)
    return out


def _scores(
    task: str, file_paths: Sequence[str], passages: list[_Passage], statements: Sequence[str]
) -> tuple[list[float], Array, Array]:
    """Each passage's score, the passages' unit vectors and the briefed statements' (one call each)."""
    judge = shared_judge()
    judgements, vectors = judge.judge_and_embed([(p.text, p.turn.role) for p in passages])
    others = _unit(embedded(judge.embedder, [" ".join([task, *file_paths]), *statements]))
    vectors = _unit(np.asarray(vectors, dtype=np.float32))
    similarity = vectors @ others[0]
    scores = [float(s) + DURABLE_WEIGHT * j.p(*DURABLE) for s, j in zip(similarity, judgements, strict=True)]
    return scores, vectors, others[1:]


def _when(passage: _Passage) -> tuple[datetime, int]:
    return (passage.turn.occurred_at or passage.session.created_at, passage.turn.index)


def _overtaken(
    i: int, eligible: list[int], passages: list[_Passage], vectors: Array, records: Array, briefed: Sequence[Record]
) -> bool:
    """Something said later on the same topic (similarity ≥ SAME_TOPIC): a briefed record, or
    another passage good enough to quote. An amended rule's old wording is not quoted beside it."""
    mine = _when(passages[i])
    if any(float(vectors[i] @ records[j]) >= SAME_TOPIC and r.occurred_at > mine[0] for j, r in enumerate(briefed)):
        return True
    return any(
        _when(passages[k]) > mine
        and passages[k].turn is not passages[i].turn
        and float(vectors[i] @ vectors[k]) >= SAME_TOPIC
        for k in eligible
    )


def _chosen(passages: list[_Passage], scores: list[float], slots: int) -> list[Excerpt]:
    order = sorted(range(len(passages)), key=lambda i: -scores[i])
    taken: dict[str, int] = {}
    out: list[tuple[_Passage, float]] = []
    for i in order:
        p = passages[i]
        if scores[i] < MIN_SCORE or len(out) >= slots:
            break
        if taken.get(p.session.id, 0) >= PER_SESSION or any(_overlap(p, q) for q, _ in out):
            continue
        taken[p.session.id] = taken.get(p.session.id, 0) + 1
        out.append((p, scores[i]))
    return [_excerpt(p, score) for p, score in out]


def _overlap(passage: _Passage, chosen: _Passage) -> bool:
    """Some of the same words again: spans of one turn that overlap."""
    same = (passage.session.id, passage.turn.index) == (chosen.session.id, chosen.turn.index)
    return same and passage.start < chosen.end and chosen.start < passage.end


def _excerpt(passage: _Passage, score: float) -> Excerpt:
    session, turn = passage.session, passage.turn
    return Excerpt(
        session_id=session.id,
        session_title=session.title,
        turn_index=turn.index,
        role=turn.role,
        speaker=turn.speaker,
        occurred_at=turn.occurred_at or session.created_at,
        quote=passage.quote,
        score=round(score, 3),
    )
