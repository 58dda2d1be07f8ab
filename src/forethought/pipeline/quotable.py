"""The sentences a brief may quote from a stored turn, and their vectors, made when it is captured.

Past-session excerpts (`excerpts.py`) judge every sentence the person or the agent said in the
sessions they look at; embedding them then is what a brief spent most of its time on. So the
capture stage embeds the same sentences once, with the sentence judge's model, and the store
keeps the vectors with the turn (`SessionStore.add` / `append_turns`; `SentenceVector`). What
is never quoted is never embedded: tool output and system text, a turn holding instruction-like
text, sentences under `MIN_CHARS`, rule files and ADRs (each of their rules is a record). A
capture embeds at most `MAX_EMBEDDED` sentences; the rest, and every sentence when the model is
missing, are embedded by the brief that needs them, as before. The extraction stage that follows
reads the same sentences through the vector cache, so for the project app this costs no second run.

A brief quotes a passage — the sentence with its neighbours (`passage_span`) — and compares
passages by topic, so the passage is embedded too, but only around a sentence that can ever be
quoted: one whose durable probability could reach `MIN_SCORE` with a perfect similarity
(`MIN_DURABLE`). The judge that decides this runs on the vectors just made (no second model run).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from forethought.domain import Role, Turn
from forethought.domain.documents import ITEMISED_SOURCES
from forethought.embed.cache import embedded
from forethought.errors import ModelUnavailable
from forethought.judge import shared_judge
from forethought.judge.acts import DURABLE
from forethought.store.types import SentenceVector, quote_digest
from forethought.text.injection import find_injection
from forethought.text.sentences import Sentence, split_sentences

__all__ = [
    "DURABLE_WEIGHT",
    "MAX_CHARS",
    "MAX_EMBEDDED",
    "MIN_CHARS",
    "MIN_DURABLE",
    "MIN_SCORE",
    "QUOTED_ROLES",
    "judged_text",
    "passage_span",
    "quotable",
    "sentence_vectors",
]

log = logging.getLogger(__name__)

MAX_CHARS = 420  # an excerpt is a passage, not a transcript; a longer sentence is judged by its start
MIN_CHARS = 20  # shorter sentences ("ok, thanks") say nothing worth quoting
MAX_EMBEDDED = 2_000  # sentences one capture embeds (a 1,000-turn transcript does not stall it)
QUOTED_ROLES = (Role.USER, Role.AGENT)
# A passage is quoted when similarity + DURABLE_WEIGHT × durable probability reaches MIN_SCORE:
# in effect, the judge is confident it states a rule and it is about the task at least a little.
DURABLE_WEIGHT = 2.0
MIN_SCORE = 1.8
MIN_DURABLE = (MIN_SCORE - 1.0) / DURABLE_WEIGHT  # below it, not even a cosine of 1 reaches MIN_SCORE


def quotable(turn: Turn) -> tuple[list[Sentence], list[int]]:
    """The turn's sentences and the positions of those a brief may quote, in order (none for a
    turn of another role or one holding instruction-like text)."""
    if turn.role not in QUOTED_ROLES or find_injection(turn.text) is not None:
        return [], []
    found = split_sentences(turn.text)
    return found, [n for n, s in enumerate(found) if len(s.text) >= MIN_CHARS]


def judged_text(sentence: Sentence) -> str:
    """What the judge reads of a quotable sentence (and what its stored vector was made from)."""
    return sentence.text[:MAX_CHARS]


def passage_span(sentences: Sequence[Sentence], n: int) -> tuple[int, int]:
    """What a brief quotes around sentence `n`: it with the one after it, then the one before,
    while the span fits in MAX_CHARS (a rule's reason tends to follow it; what led to it, to
    precede it), as offsets into the turn's text."""
    lo = hi = n
    for step in (n + 1, n - 1):
        if 0 <= step < len(sentences):
            a, b = min(lo, step), max(hi, step)
            if sentences[b].end - sentences[a].start <= MAX_CHARS:
                lo, hi = a, b
    start, end = sentences[lo].start, sentences[hi].end
    return start, min(end, start + MAX_CHARS)


def sentence_vectors(turns: Sequence[Turn], *, source: str) -> list[SentenceVector]:
    """The vectors of the turns' quotable sentences (and of the passages around those that may be
    quoted), by the sentence judge's model; [] for a rule file or an ADR, or when the model or the
    judge's weights are not available (logged: capture never fails for this)."""
    if source in ITEMISED_SOURCES:
        return []
    found: list[tuple[Turn, int, str, str]] = []  # turn, sentence start, sentence, passage
    for turn in turns:
        sentences, positions = quotable(turn)
        for n in positions:
            start, end = passage_span(sentences, n)
            found.append((turn, sentences[n].start, judged_text(sentences[n]), turn.text[start:end]))
    found = found[:MAX_EMBEDDED]
    if not found:
        return []
    judge = shared_judge()
    try:
        judgements, vectors = judge.judge_and_embed([(text, turn.role) for turn, _, text, _ in found])
        name = judge.embedder.name
        rows = [
            SentenceVector(turn.index, start, name, quote_digest(text), vector)
            for (turn, start, text, _), vector in zip(found, vectors, strict=True)
        ]
        likely = [i for i, j in enumerate(judgements) if j.p(*DURABLE) >= MIN_DURABLE]
        passages = embedded(judge.embedder, [found[i][3] for i in likely])
    except ModelUnavailable as exc:
        log.warning("turns stored without sentence vectors: %s", exc)
        return []
    for i, vector in zip(likely, passages, strict=True):
        rows[i] = replace(rows[i], passage_digest=quote_digest(found[i][3]), passage_vector=vector)
    return rows
