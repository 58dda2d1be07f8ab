"""What a task and a record have in common, and the heuristic verdict built on it.

The heuristic judge is deterministic and refuses topical similarity alone (recall already found the
record similar; that is why it is here). A record applies when it and the task share enough
*specific* evidence, weighed as:
- an identifier or proper name (`PrismaClient`, `localStorage`, `Stripe`): 2 each;
- a content word outside `GENERIC_WORDS`, compared after light stemming: 1 each;
- an area of work both touch (the app's `areas`: auth, ui, database, ...): 2;
- a record tag (or its part after `:`) the task or a file path names: 2;
- a file path part the record names (`api`, `route.ts`), or the record naming the path: 2;
and applies at a weight of `MIN_WEIGHT` (2): one identifier, two words, one shared area. A record
tagged `always` or `scope:global` applies to every task. The same counts are features of the
learned relevance score (`relevance.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from forethought.apps.areas import Area
from forethought.apps.base import Applicability
from forethought.domain import Record
from forethought.text.identifiers import strong_terms
from forethought.text.words import GENERIC_WORDS, salient_words, word_key, word_keys

__all__ = ["ALWAYS_TAGS", "MIN_WEIGHT", "Shared", "heuristic_applicability", "shared_evidence"]

MIN_WEIGHT = 2
ALWAYS_TAGS = frozenset({"always", "scope:global"})


@lru_cache(maxsize=256)
def _task_side(task: str, file_paths: tuple[str, ...]) -> tuple[frozenset[str], dict[str, str], frozenset[str]]:
    """The task's terms, salient words and path parts: read once per task, not once per record
    (a brief weighs up to its recall depth of records against the same task and paths)."""
    return frozenset(strong_terms(task)), salient_words(task), frozenset(_path_parts(file_paths))


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


@dataclass
class Shared:
    """The specific evidence a task and a record share, with a reason for each part."""

    always: bool = False
    terms: int = 0
    words: int = 0
    area: bool = False
    tags: bool = False
    paths: bool = False
    reasons: list[str] = field(default_factory=list)

    @property
    def weight(self) -> int:
        return 2 * self.terms + self.words + 2 * (self.area + self.tags + self.paths)


def shared_evidence(task: str, record: Record, *, areas: Sequence[Area], file_paths: Sequence[str] = ()) -> Shared:
    tags = {t.lower() for t in record.tags}
    if tags & ALWAYS_TAGS:
        return Shared(always=True, reasons=["marked as applying to every task"])
    text = " ".join([record.statement, *(str(v) for v in record.attributes.values() if isinstance(v, str))])
    shared = Shared()
    task_terms, task_words, paths = _task_side(task, tuple(file_paths))
    record_terms, record_words = _record_side(text)
    shared_terms = sorted(task_terms & record_terms)
    if shared_terms:
        shared.terms = len(shared_terms)
        shared.reasons.append("names " + ", ".join(f"`{t}`" for t in shared_terms[:3]))
    shared_words = sorted(task_words.keys() & record_words.keys() - {word_key(t) for t in shared_terms})
    if shared_words:
        shared.words = len(shared_words)
        shared.reasons.append("shares " + ", ".join(f"'{task_words[w]}'" for w in shared_words[:4]))
    vocabularies = _area_keys(tuple(areas))
    touched = [(name, task_words.keys() & vocab, record_words.keys() & vocab) for name, vocab in vocabularies]
    if common := [(name, mine, theirs) for name, mine, theirs in touched if mine and theirs]:
        shared.area = True
        name, mine, theirs = common[0]
        seen = sorted({task_words[k] for k in mine} | {record_words[k] for k in theirs})
        shared.reasons.append(f"both concern {name} ({', '.join(seen[:3])})")
    tag_words = {word_key(t.rsplit(":", 1)[-1]) for t in tags}
    if tag_hits := sorted(tag_words & (task_words.keys() | paths)):
        shared.tags = True
        shared.reasons.append("tagged " + ", ".join(tag_hits[:2]))
    path_hits = sorted(paths & record_words.keys()) or [p for p in file_paths if p and p in record.statement]
    if path_hits:
        shared.paths = True
        shared.reasons.append("touches the files (" + ", ".join(path_hits[:2]) + ")")
    return shared


@lru_cache(maxsize=4096)
def _record_side(text: str) -> tuple[frozenset[str], Mapping[str, str]]:
    """A record's strong terms and salient words (key -> word as written): read once per text,
    since the same records are judged against task after task and file after file."""
    return frozenset(strong_terms(text)), MappingProxyType(salient_words(text))


def heuristic_applicability(
    task: str, record: Record, *, areas: Sequence[Area], file_paths: Sequence[str] = ()
) -> Applicability:
    """Whether `record` applies to `task`, by shared specific evidence (see the module doc);
    `areas` are the app's areas of work."""
    shared = shared_evidence(task, record, areas=areas, file_paths=file_paths)
    if shared.always or shared.weight >= MIN_WEIGHT:
        return Applicability(applies=True, reason="; ".join(shared.reasons))
    if shared.reasons:
        return Applicability(applies=False, reason=f"only {shared.reasons[0]}; one common word is not enough")
    return Applicability(applies=False, reason="similar in wording only: no term, area or file in common")
