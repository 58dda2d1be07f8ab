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
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from forethought.domain import Role, Turn
from forethought.domain.documents import ITEMISED_SOURCES
from forethought.embed.cache import embedded
from forethought.errors import ModelUnavailable
from forethought.judge import shared_judge
from forethought.store.types import SentenceVector, quote_digest
from forethought.text.injection import find_injection
from forethought.text.sentences import Sentence, split_sentences

__all__ = ["MAX_CHARS", "MAX_EMBEDDED", "MIN_CHARS", "QUOTED_ROLES", "quotable", "sentence_vectors"]

log = logging.getLogger(__name__)

MAX_CHARS = 420  # an excerpt is a passage, not a transcript; a longer sentence is judged by its start
MIN_CHARS = 20  # shorter sentences ("ok, thanks") say nothing worth quoting
MAX_EMBEDDED = 2_000  # sentences one capture embeds (a 1,000-turn transcript does not stall it)
QUOTED_ROLES = (Role.USER, Role.AGENT)


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


def sentence_vectors(turns: Sequence[Turn], *, source: str) -> list[SentenceVector]:
    """The vectors of the turns' quotable sentences, by the sentence judge's model; [] for a rule
    file or an ADR, or when the model is not available (logged: capture never fails for this)."""
    if source in ITEMISED_SOURCES:
        return []
    keys: list[tuple[int, int, str]] = []
    for turn in turns:
        found, positions = quotable(turn)
        keys += [(turn.index, found[n].start, judged_text(found[n])) for n in positions]
    keys = keys[:MAX_EMBEDDED]
    if not keys:
        return []
    embedder = shared_judge().embedder
    try:
        vectors = embedded(embedder, [text for _, _, text in keys])
    except ModelUnavailable as exc:
        log.warning("turns stored without sentence vectors: %s", exc)
        return []
    return [
        SentenceVector(turn, start, embedder.name, quote_digest(text), vector)
        for (turn, start, text), vector in zip(keys, vectors, strict=True)
    ]
