"""Relation: how each candidate stands to what the space already holds, decided before review.

Each candidate is compared with the top few current records of its kind (recalled with the
candidate's statement as the query) and labelled new, duplicate, refines, conflicts or supersedes.
The target of any label but `new` is always one of the recalled records.

Rules, in order (deterministic):
1. identity — the kind declares identity attributes (an application's company and role): a
   recalled record with the same identity is the same thing; equal attributes → duplicate,
   different ones → supersedes (e.g. the status moved from interviewing to rejected); a
   different identity → new. An "unspecified" value matches any ("Stripe rejected me" matches
   the one application at Stripe); when it matches several, a person decides (conflicts).
2. conflicts — a recalled record about the same thing (its descriptive attributes agree) whose
   yes/no attribute flips (the same skill, once had and once not).
3. duplicate — the same statement after normalisation, or word overlap ≥ 0.85, or embedding
   similarity ≥ 0.95.
4. supersedes — the candidate amends a related record said earlier, as the pair judge
   (`judge/pairs.py`, learned on `data/pairs/`) finds at `AMEND_PROBABILITY`; without its model,
   when it says so ("instead", "no longer", "from now on", "now", "switched to", "replaces", ...)
   or changes a value (a number or version differs) while naming the same thing (a shared
   identifier with some common words, or word overlap ≥ 0.4, or similarity ≥ 0.7). Records of any
   kind are compared here: a later session may file the amended rule under another kind.
   Approving it retires the old record.
5. conflicts — a close record (overlap ≥ 0.5 or similarity ≥ 0.8) where one says "not/never/no"
   and the other does not.
6. refines — a close record whose words the candidate contains (≥ 80 %) while adding more.
7. otherwise new.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from forethought.domain import Record, Relation, RelationLabel, Status
from forethought.domain.candidates import Candidate
from forethought.errors import ModelUnavailable
from forethought.judge.pairs import shared_pair_judge
from forethought.memory import Memory, Scope
from forethought.recall.results import RecallHit
from forethought.text.amends import CONTRAST, amends_by_rule, negation_flips
from forethought.text.amends import overlap as jaccard
from forethought.text.words import words

__all__ = ["relate"]

TOP = 5
UNSPECIFIED = "unspecified"  # an identity value the person did not say (e.g. an application's role)
DUPLICATE_OVERLAP = 0.85
DUPLICATE_SIMILARITY = 0.95
CLOSE_OVERLAP = 0.5
CLOSE_SIMILARITY = 0.8
REFINES_CONTAINED = 0.8

# The pair judge's probability of "amends" at which a supersession is proposed: precision 0.889,
# recall 0.695 out of fold on data/pairs (the rule alone, `text/amends.py`: 0.94 / 0.493). Approval still retires.
AMEND_PROBABILITY = 0.6


def _words(text: str) -> set[str]:
    return set(words(text))


def _norm(value: Any) -> Any:
    return " ".join(str(value).casefold().split()) if isinstance(value, str) else value


def _similarity(hit: RecallHit) -> float:
    semantic = hit.why.get("semantic")
    return semantic.raw if semantic is not None else 0.0


def _same_identity(wanted: tuple[Any, ...], theirs: tuple[Any, ...]) -> bool:
    """Equal, where an "unspecified" value (an app's way of saying it was not said) matches any."""
    return all(w == t or UNSPECIFIED in (w, t) for w, t in zip(wanted, theirs, strict=True))


def _by_identity(candidate: Candidate, identity: tuple[str, ...], hits: Sequence[RecallHit]) -> Relation | None:
    wanted = tuple(_norm(candidate.attributes.get(name)) for name in identity)
    matches = [
        h.record for h in hits if _same_identity(wanted, tuple(_norm(h.record.attributes.get(n)) for n in identity))
    ]
    if not matches:
        return None
    record = matches[0]
    if len(matches) > 1 and UNSPECIFIED in wanted:
        return Relation(
            label=RelationLabel.CONFLICTS,
            target_id=record.id,
            reason=f"could be any of {', '.join(r.handle for r in matches)} ({', '.join(identity)} not all said)",
        )
    same = all(_norm(record.attributes.get(k)) == _norm(v) for k, v in candidate.attributes.items())
    if same:
        return Relation(
            label=RelationLabel.DUPLICATE,
            target_id=record.id,
            reason=f"same {', '.join(identity)} and attributes as {record.handle}",
        )
    changed = sorted(k for k, v in candidate.attributes.items() if _norm(record.attributes.get(k)) != _norm(v))
    return Relation(
        label=RelationLabel.SUPERSEDES,
        target_id=record.id,
        reason=f"same {', '.join(identity)} as {record.handle}; changed: {', '.join(changed)}",
    )


def _said(value: Any) -> bool:
    """False for a value that stands for "not said" (None, empty, unknown, unspecified)."""
    return value not in (None, "") and _norm(value) not in (UNSPECIFIED, "unknown")


def _bool_conflict(candidate: Candidate, record: Record) -> bool:
    """A yes/no attribute flips while the attributes that say what it is about agree (the same
    skill, once had and once not); a value one side left unsaid (level unknown) does not disagree."""
    shared = set(candidate.attributes) & set(record.attributes)
    flips = [
        k
        for k in shared
        if isinstance(candidate.attributes[k], bool) and candidate.attributes[k] != record.attributes[k]
    ]
    about = [
        k
        for k in shared
        if k not in flips
        and not isinstance(candidate.attributes[k], bool)
        and _said(candidate.attributes[k])
        and _said(record.attributes[k])
    ]
    agree = all(_norm(candidate.attributes[k]) == _norm(record.attributes[k]) for k in about)
    return bool(flips) and bool(about) and agree


def _amends(candidate: Candidate, hit: RecallHit) -> bool:
    """The candidate says it changes a related, older record, or gives a named thing a new value."""
    return amends_by_rule(hit.record.statement, candidate.statement, _similarity(hit))


def _supersedes(candidate: Candidate, hits: Sequence[RecallHit]) -> Relation | None:
    """The current record the candidate amends: by the pair judge where its model loads (the
    likeliest at AMEND_PROBABILITY or above), else by the rule of `_amends`."""
    current = [
        h for h in hits if h.record.status is Status.ACTIVE and _norm(h.record.statement) != _norm(candidate.statement)
    ]
    if not current:
        return None
    try:
        said = shared_pair_judge().probabilities([(h.record.statement, candidate.statement) for h in current])
    except ModelUnavailable:
        said = []
    if said:
        p, hit = max(zip((s["amends"] for s in said), current, strict=True), key=lambda pair: pair[0])
        if p < AMEND_PROBABILITY:
            return None
        return Relation(
            label=RelationLabel.SUPERSEDES,
            target_id=hit.record.id,
            reason=f"amends {hit.record.handle}: a later statement changes what it says (pair judge {p:.2f})",
        )
    for hit in current:
        if _amends(candidate, hit):
            return Relation(
                label=RelationLabel.SUPERSEDES,
                target_id=hit.record.id,
                reason=f"amends {hit.record.handle}: a later statement changes what it says",
            )
    return None


def _classify(candidate: Candidate, hits: Sequence[RecallHit], wider: Sequence[RecallHit] = ()) -> Relation:
    mine = _words(candidate.statement)
    for hit in hits:
        if _bool_conflict(candidate, hit.record):
            return Relation(
                label=RelationLabel.CONFLICTS,
                target_id=hit.record.id,
                reason=f"contradicts {hit.record.handle}: one affirms what the other denies",
            )
    for hit in hits:
        record = hit.record
        overlap, similarity = jaccard(mine, _words(record.statement)), _similarity(hit)
        if (
            _norm(record.statement) == _norm(candidate.statement)
            or overlap >= DUPLICATE_OVERLAP
            or similarity >= DUPLICATE_SIMILARITY
        ):
            return Relation(
                label=RelationLabel.DUPLICATE,
                target_id=record.id,
                reason=f"same fact as {record.handle} (word overlap {overlap:.2f})",
            )
    if (amended := _supersedes(candidate, [*hits, *wider])) is not None:
        return amended
    for hit in hits:
        record = hit.record
        theirs = _words(record.statement)
        overlap, similarity = jaccard(mine, theirs), _similarity(hit)
        if overlap < CLOSE_OVERLAP and similarity < CLOSE_SIMILARITY:
            continue
        if negation_flips(record.statement, candidate.statement):
            return Relation(
                label=RelationLabel.CONFLICTS,
                target_id=record.id,
                reason=f"contradicts {record.handle}: one affirms what the other denies",
            )
        contained = len(theirs & mine) / len(theirs) if theirs else 0.0
        if contained >= REFINES_CONTAINED and len(mine) > len(theirs):
            return Relation(label=RelationLabel.REFINES, target_id=record.id, reason=f"adds detail to {record.handle}")
    return Relation(label=RelationLabel.NEW)


def relate(memory: Memory, scope: Scope, candidates: Sequence[Candidate]) -> list[Relation]:
    app = scope.app
    relations: list[Relation] = []
    held: dict[str, bool] = {}  # kind -> whether the space holds an active record of it

    def holds(kind: str) -> bool:
        # A kind the space holds no active record of can relate to nothing: skip its recall (a
        # first import of thousands of candidates then costs one query per kind, not per candidate).
        if kind not in held:
            held[kind] = bool(memory.list_records(scope, statuses=(Status.ACTIVE,), kinds=[kind], limit=1))
        return held[kind]

    for candidate in candidates:
        hits = (
            memory.recall(scope, candidate.statement, k=TOP, kinds=[candidate.kind]).hits
            if holds(candidate.kind)
            else []
        )
        spec = app.kinds.get(candidate.kind)
        identity = spec.identity if spec else ()
        if identity and all(candidate.attributes.get(name) not in (None, "") for name in identity):
            # Identified things are the same only when their identity matches; anything else is new.
            found = _by_identity(candidate, identity, hits) if hits else None
            relations.append(found or Relation(label=RelationLabel.NEW))
            continue
        # A statement that says it amends something is compared with current records of every kind
        # (a later session may file the amended rule under another kind); one that says nothing of
        # the sort only with its own kind, so a first import costs a query per kind, not per candidate.
        wider = (
            [h for h in memory.recall(scope, candidate.statement, k=TOP).hits if h.record.kind != candidate.kind]
            if CONTRAST.search(candidate.statement)
            else []
        )
        if not hits and not wider:
            relations.append(Relation(label=RelationLabel.NEW))
            continue
        relations.append(_classify(candidate, hits, wider))
    return relations
