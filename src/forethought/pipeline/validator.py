"""The validator: deterministic rules (no LLM) every extracted candidate passes before review.

First the session is redacted: in every turn, secrets become `[REDACTED:<kind>]` and payment card
numbers `[card]`, always; emails and phone numbers become `[email]` / `[phone]` when the app's
`personal_data` policy is "redact". Each replacement is a `Redaction`; the changed turns are in
`ValidationReport.redacted_turns`, whether or not a candidate quoted them. Then each candidate
goes through the rules below, in this order (`RULES`); the first that refuses it names the
rejection, so a candidate that holds a secret and has no evidence is rejected as `secret`.

 1 unknown_kind        kind not among the app's kinds                                  reject
 2 statement_length    trimmed statement not MIN_STATEMENT-MAX_STATEMENT characters    reject
 3 secret              a secret in the statement, attributes or evidence, or the mark
                       capture left where it redacted one ([REDACTED:kind])            reject
 4 personal_data       a card number (any policy), email/phone under "reject", or the
                       mark capture left where it redacted one ([email], [phone])      reject
                       email/phone under "redact": replaced in statement, attributes and
                       quotes (as in the turns, so quotes still match), Flag.PERSONAL_DATA
 5 evidence_not_found  no quote, an empty one, or one in no single (redacted) turn
                       after `normalize`; found quotes get session id, turn index, role  reject
 6 transient           branch names, "my laptop", "right now", "for now", local build
                       failures, in the statement or the quote clauses behind it        reject
 7 deferred            "maybe later", "not this sprint", "nice to have", "we might"...  reject
 8 unlikely            its extractor's learned model put it below its threshold
                       (`Flag.UNLIKELY`), e.g. the task that opens a conversation     reject
 9 injection           instruction-like text anywhere in the candidate       Flag.INJECTION
10 agent_only          asserted by the agent, or every quote from an agent turn: confidence
                       capped at AGENT_ONLY_CAP                             Flag.AGENT_ONLY
11 duplicate           same kind and normalised statement (or token Jaccard ≥ DUPLICATE_JACCARD)
                       as an earlier accepted one: folded into it (evidence, flags and tags
                       united, highest confidence), counted in `Validated.merged`

Every input candidate ends up exactly once: accepted, rejected (rule and reason) or merged. A
rejection keeps the candidate with secrets and personal data redacted, so showing rejections never
shows what was removed from the session. Nothing here raises on odd input.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from forethought.apps.base import App
from forethought.domain import Evidence, Role, Session
from forethought.domain.candidates import Candidate, Flag, Redaction, Rejection, Validated
from forethought.judge.injection import instruction_like, instruction_like_each
from forethought.text import detectors
from forethought.text.detectors import Span, find_cards, find_personal_data, find_phrase, find_secrets, redact_all
from forethought.text.normalize import find_quote, normalize, related_clauses, tokens

__all__ = ["AGENT_ONLY_CAP", "MAX_STATEMENT", "MIN_STATEMENT", "RULES", "ValidationReport", "validate"]

MIN_STATEMENT = 8
MAX_STATEMENT = 400
AGENT_ONLY_CAP = 0.5
DUPLICATE_JACCARD = 0.9

Finder = Callable[[str], list[Span]]


class ValidationReport(BaseModel):
    """What `validate` decided, and the session text to store instead of the raw turns."""

    model_config = ConfigDict(frozen=True)

    validated: Validated
    redactions: list[Redaction] = Field(default_factory=list)
    # turn index -> the turn's text with redactions applied; only turns that changed
    redacted_turns: dict[int, str] = Field(default_factory=dict)

    def redacted_session(self, session: Session) -> Session:
        """`session` with the redacted text in place of each changed turn."""
        turns = tuple(
            t.model_copy(update={"text": self.redacted_turns[t.index]}) if t.index in self.redacted_turns else t
            for t in session.turns
        )
        return session.model_copy(update={"turns": turns})


@dataclass(frozen=True, slots=True)
class _Reject:
    reason: str


@dataclass(frozen=True, slots=True)
class _Context:
    session: Session
    app: App
    texts: tuple[str, ...]  # normalised redacted text of each turn, by position
    # Instruction-like verdicts of the candidates' texts, judged in one batch up front.
    instructions: dict[tuple[str, ...], str | None] = field(default_factory=dict)


def _json(attributes: dict[str, Any]) -> str:
    """Attributes as one text, so `{"password": "x"}` is seen as a password (keys and values)."""
    try:
        return json.dumps(attributes, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # keys JSON cannot hold, or a cycle
        return str(attributes)


def _texts(c: Candidate) -> Iterator[str]:
    yield c.statement
    if c.attributes:
        yield _json(c.attributes)
    yield from (ev.quote for ev in c.evidence)


def _kinds_found(c: Candidate, finder: Finder) -> list[str]:
    return sorted({s.kind for text in _texts(c) for s in redact_all(text, finder)[1]})


# What capture left where it removed something: the sentence around it carried that value.
_SECRET_MARK = re.compile(r"\[REDACTED:([a-z0-9_]+)\]")
_PERSONAL_MARK = re.compile(r"\[(email|phone|card)\]")


def _marks(c: Candidate, pattern: re.Pattern[str]) -> list[str]:
    return sorted({m.group(1) for text in _texts(c) for m in pattern.finditer(text)})


def _scrub(c: Candidate, finder: Finder) -> Candidate:
    """A copy of `c` with what `finder` finds redacted in its statement, attributes and quotes.
    Attributes are redacted as JSON text; if that no longer parses they are dropped."""

    def clean(text: str) -> str:
        return redact_all(text, finder)[0]

    attributes: Any = c.attributes
    if attributes and (text := _json(attributes)) != (cleaned := clean(text)):
        try:
            attributes = json.loads(cleaned)
        except ValueError:
            attributes = {}
    evidence = [ev.model_copy(update={"quote": clean(ev.quote)}) for ev in c.evidence]
    attributes = attributes if isinstance(attributes, dict) else {}
    return c.model_copy(update={"statement": clean(c.statement), "attributes": attributes, "evidence": evidence})


def _redact_session(session: Session, app: App) -> tuple[list[str], list[Redaction], dict[int, str]]:
    personal: Finder = find_personal_data if app.personal_data == "redact" else find_cards
    texts: list[str] = []
    redactions: list[Redaction] = []
    changed: dict[int, str] = {}
    for turn in session.turns:
        text = turn.text
        for rule, finder in (("secret", find_secrets), ("personal_data", personal)):
            text, spans = redact_all(text, finder)
            redactions += [Redaction(turn_index=turn.index, rule=rule, replacement=s.replacement) for s in spans]
        if text != turn.text:
            changed[turn.index] = text
        texts.append(text)
    return texts, redactions, changed


# The rules, in order. Each returns the candidate (possibly changed) or a _Reject with its reason.


def unknown_kind(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    if c.kind in ctx.app.kinds:
        return c
    return _Reject(f"kind {c.kind!r} is not one of the app's kinds ({', '.join(sorted(ctx.app.kinds))})")


def statement_length(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    text = c.statement.strip()
    if MIN_STATEMENT <= len(text) <= MAX_STATEMENT:
        return c.model_copy(update={"statement": text})
    return _Reject(f"statement is {len(text)} characters; it must be {MIN_STATEMENT}-{MAX_STATEMENT}")


def secret(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    kinds = _kinds_found(c, find_secrets)
    if kinds:
        return _Reject(f"contains a secret ({', '.join(kinds)}); it is redacted from the session")
    carried = _marks(c, _SECRET_MARK)
    if carried:  # redacted at capture: the value is gone, but a memory is never built around a secret
        return _Reject(f"the sentence carried a secret ({', '.join(carried)}), redacted when it was captured")
    return c


def personal_data(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    kinds = _kinds_found(c, find_personal_data)
    if not kinds:
        carried = _marks(c, _PERSONAL_MARK)
        if carried:  # redacted at capture: a sentence built around someone's contact details is no memory
            return _Reject(f"the sentence carried personal data ({', '.join(carried)}), redacted when it was captured")
        return c
    if "card" in kinds:
        return _Reject("contains a payment card number (never stored, whatever the app's policy)")
    if ctx.app.personal_data == "reject":
        return _Reject(f"contains personal data ({', '.join(kinds)}); this app's policy is to reject it")
    flags = c.flags if Flag.PERSONAL_DATA in c.flags else [*c.flags, Flag.PERSONAL_DATA]
    return _scrub(c, find_personal_data).model_copy(update={"flags": flags})


def evidence_not_found(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    if not c.evidence:
        return _Reject("no evidence quote")
    turns = ctx.session.turns
    positions = {turn.index: i for i, turn in enumerate(turns)}
    annotated: list[Evidence] = []
    for ev in c.evidence:
        if not normalize(ev.quote):
            return _Reject("an evidence quote is empty")
        found = find_quote(ev.quote, ctx.texts, positions.get(ev.turn_index) if ev.turn_index is not None else None)
        if found is None:
            return _Reject(f"quote not found in any single turn of the session: {ev.quote[:120]!r}")
        where = {"session_id": ctx.session.id, "turn_index": turns[found].index, "role": turns[found].role}
        annotated.append(ev.model_copy(update=where))
    return c.model_copy(update={"evidence": annotated})


def _first_phrase(patterns: Sequence[re.Pattern[str]], texts: Iterable[str]) -> str | None:
    return next((hit for text in texts if (hit := find_phrase(patterns, text))), None)


def _claims(c: Candidate) -> list[str]:
    """The statement and the quote clauses it was drawn from: a "for now" in the clause behind a
    fact counts, one in an unrelated clause of the same quote does not."""
    return [c.statement, *related_clauses(c.statement, [ev.quote for ev in c.evidence])]


def transient(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    hit = _first_phrase(detectors.TRANSIENT, _claims(c))
    return c if hit is None else _Reject(f"describes a passing state, not a lasting fact ({hit!r})")


def deferred(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    hit = _first_phrase(detectors.DEFERRED, _claims(c))
    return c if hit is None else _Reject(f"an idea for later, not a decision ({hit!r})")


def unlikely(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    if Flag.UNLIKELY not in c.flags:
        return c
    return _Reject(f"read where it was said, unlikely to be standing memory ({c.extractor or 'the extractor'})")


def injection(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    texts = tuple(_texts(c))
    why = ctx.instructions[texts] if texts in ctx.instructions else instruction_like(list(texts))
    if Flag.INJECTION in c.flags or why is None:
        return c
    return c.model_copy(update={"flags": [*c.flags, Flag.INJECTION]})


def agent_only(c: Candidate, ctx: _Context) -> Candidate | _Reject:
    if c.asserted_by is not Role.AGENT and not all(ev.role is Role.AGENT for ev in c.evidence):
        return c
    flags = c.flags if Flag.AGENT_ONLY in c.flags else [*c.flags, Flag.AGENT_ONLY]
    return c.model_copy(update={"confidence": min(c.confidence, AGENT_ONLY_CAP), "flags": flags})


Rule = Callable[[Candidate, _Context], Candidate | _Reject]
_RULES: tuple[Rule, ...] = (
    unknown_kind,
    statement_length,
    secret,
    personal_data,
    evidence_not_found,
    transient,
    deferred,
    unlikely,
    injection,
    agent_only,
)
RULES: tuple[str, ...] = (*(rule.__name__ for rule in _RULES), "duplicate")


EvidenceKey = tuple[str, int | None]  # (normalised quote, turn index)


def _fold_into(first: Candidate, dup: Candidate, ctx: _Context, evidence: dict[EvidenceKey, Evidence]) -> Candidate:
    """`dup` folded into `first`: evidence, flags and tags united, the higher confidence.
    `evidence` holds `first`'s evidence by key and gains `dup`'s (each quote is normalised once)."""
    for ev in dup.evidence:
        evidence.setdefault((normalize(ev.quote), ev.turn_index), ev)
    merged = first.model_copy(
        update={
            "evidence": list(evidence.values()),
            "confidence": max(first.confidence, dup.confidence),
            "asserted_by": dup.asserted_by if first.asserted_by is Role.AGENT else first.asserted_by,
            "flags": [f for f in dict.fromkeys([*first.flags, *dup.flags]) if f is not Flag.AGENT_ONLY],
            "tags": list(dict.fromkeys([*first.tags, *dup.tags])),
        }
    )
    result = agent_only(merged, ctx)  # decided again: a user's quote in the duplicate lifts the cap
    return result if isinstance(result, Candidate) else merged


class _Kept:
    """The candidates kept so far, indexed so that finding the first one a new candidate repeats
    costs about the same whatever their number (a transcript may hold thousands of candidates).

    Two candidates are the same fact when they have the same kind and the same normalised
    statement, or a token Jaccard of at least DUPLICATE_JACCARD. Jaccard ≥ J bounds how many of
    a's words b may lack: |a − b| ≤ |a|·(1 − J)/J. So b holds at least one of any
    ⌊|a|·(1 − J)/J⌋ + 1 words of a, and only the kept candidates holding one of a's rarest words
    of that many need comparing (the prefix filter of set-similarity joins).
    """

    def __init__(self) -> None:
        self.items: list[Candidate] = []
        self.evidence: list[dict[EvidenceKey, Evidence]] = []
        self._exact: dict[tuple[str, str], int] = {}
        self._words: list[frozenset[str]] = []
        self._postings: dict[tuple[str, str], list[int]] = {}

    def find(self, c: Candidate, norm: str, words: frozenset[str]) -> int | None:
        exact = self._exact.get((c.kind, norm))
        slack = int(len(words) * (1 - DUPLICATE_JACCARD) / DUPLICATE_JACCARD + 1e-9) + 1
        rarest = sorted(words, key=lambda w: len(self._postings.get((c.kind, w), ())))[:slack]
        near = {i for w in rarest for i in self._postings.get((c.kind, w), ())}
        similar = (
            i for i in sorted(near) if len(words & self._words[i]) / len(words | self._words[i]) >= DUPLICATE_JACCARD
        )
        return min((i for i in (exact, next(similar, None)) if i is not None), default=None)

    def add(self, c: Candidate, norm: str, words: frozenset[str]) -> None:
        index = len(self.items)
        self.items.append(c)
        self.evidence.append({(normalize(ev.quote), ev.turn_index): ev for ev in c.evidence})
        self._exact.setdefault((c.kind, norm), index)
        self._words.append(words)
        for word in words:
            self._postings.setdefault((c.kind, word), []).append(index)


def _merge_duplicates(accepted: list[Candidate], ctx: _Context) -> list[Candidate]:
    kept = _Kept()
    for c in accepted:
        norm = normalize(c.statement)
        words = frozenset(tokens(c.statement))
        i = kept.find(c, norm, words)
        if i is None:
            kept.add(c, norm, words)
        else:
            kept.items[i] = _fold_into(kept.items[i], c, ctx, kept.evidence[i])
    return kept.items


def validate(candidates: Sequence[Candidate], session: Session, app: App) -> ValidationReport:
    """Run every candidate through the rules (see the module docstring for the order)."""
    texts, redactions, changed = _redact_session(session, app)
    groups = list(dict.fromkeys(tuple(_texts(c)) for c in candidates))
    verdicts = dict(zip(groups, instruction_like_each([list(g) for g in groups]), strict=True))
    ctx = _Context(session=session, app=app, texts=tuple(normalize(t) for t in texts), instructions=verdicts)
    accepted: list[Candidate] = []
    rejected: list[Rejection] = []
    for candidate in candidates:
        for rule in _RULES:
            outcome = rule(candidate, ctx)
            if isinstance(outcome, _Reject):
                shown = _scrub(_scrub(candidate, find_secrets), find_personal_data)
                rejected.append(Rejection(candidate=shown, rule=rule.__name__, reason=outcome.reason))
                break
            candidate = outcome
        else:
            accepted.append(candidate)
    kept = _merge_duplicates(accepted, ctx)
    validated = Validated(accepted=kept, rejected=rejected, merged=len(accepted) - len(kept))
    return ValidationReport(validated=validated, redactions=redactions, redacted_turns=changed)
