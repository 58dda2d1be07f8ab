"""The project app's offline extractor: typed candidates from a coding-agent session.

Every user and agent sentence outside code blocks goes to the sentence judge (`forethought.judge`),
which says what it does: a standing rule, a preference, a failed attempt, or one of the acts that
never become a rule on their own (a plan, a one-task instruction, transient state, a proposal, a
question, chatter). The person's rules, preferences and failed attempts become candidates, kind
from the judge, attributes from `slots.py`. An agent's rule-like sentence becomes one only when the
person's next turn agrees with it ("yes, do that"), quoted beside it; otherwise it stays the
agent's proposal and is not memory. Tool output is never a source: a failing test is not a decision.

Without the judge's model (ModelUnavailable) the phrase rules in `rules.py` decide instead, and
the candidates say so (`extractor="heuristic:phrases"`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass

from forethought.apps.project.areas import vote
from forethought.apps.project.kinds import CHECKABLE
from forethought.apps.project.patterns import derive_patterns
from forethought.apps.project.rules import classify
from forethought.apps.project.slots import attributes
from forethought.apps.project.text import (
    body_of,
    is_agent_chatter,
    is_deferred,
    is_question,
    is_transient,
    sentences,
)
from forethought.domain import Evidence, Modality, Role, Session, Turn
from forethought.domain.candidates import Candidate, Flag
from forethought.errors import ModelUnavailable
from forethought.judge import Act, Judgement, SentenceJudge, shared_judge
from forethought.judge.keep import Placement, is_conversation, keep_model, placement

__all__ = ["extract"]

log = logging.getLogger(__name__)

_SOURCES = (Role.USER, Role.AGENT)
# The kinds an agent's proposal can take once the person agrees (a failed attempt or a taste is
# the person's own to report, never the agent's).
_RULE_KINDS = ("decision", "convention", "constraint", "dependency_policy", "process", "architecture")
# A sentence becomes a candidate when the judge's calibrated probability that it is durable
# memory (rule + preference + failed attempt) reaches this (chosen on the tuning sets).
THRESHOLD = 0.5
# The keep model (`judge/keep.py`) that then decides which of those a reviewer sees, and its pin.
KEEP = ("project", "f44edd15a956fa8385262be2a9a5b99c97b6f53add2fc31ed0e1702647431699")
# The person agreeing with what the agent just proposed (the first words of their next turn).
_AGREES = re.compile(
    r"^\W*(?:yes|yep|yeah|yup|sure|agreed|exactly|correct|right|perfect|ok(?:ay)?|sounds\s+good|"
    r"let'?s\s+(?:do|go\s+with)\s+(?:that|it|this)|go\s+(?:with|for)\s+(?:that|it|this)|do\s+(?:that|it)|"
    r"makes\s+sense|good\s+(?:idea|call)|that'?s\s+(?:right|it|the\s+one))\b(?!\s*,?\s*but\b)",
    re.I,
)
_SHORT_REPLY = 12  # words
# What may follow "yes"/"ok" in a reply that only agrees ("Yes, do that.", "ok go ahead with it").
_AGREEING = frozenset(
    """yes yep yeah sure ok okay please do that it this go ahead with for one let's lets sounds good great
    perfect agreed exactly fine works me we make sense makes right the plan idea call""".split()  # noqa: SIM905 - a word list
)


@dataclass(frozen=True)
class _Unit:
    turn: Turn
    sentence: str
    body: str
    start: int  # the sentence's offsets in the turn's text
    end: int

    def joined(self, other: _Unit) -> _Unit:
        """This sentence and a later one of the same turn, as one verbatim span."""
        span = self.turn.text[self.start : other.end]
        return _Unit(self.turn, span, f"{self.body} {other.body}", self.start, other.end)


def _statement(body: str) -> str:
    text = body.strip().rstrip(" ,;:—-")
    if not text.endswith((".", "!", "?")):
        text += "."
    return text[0].upper() + text[1:]


def _area(body: str, turn: Turn) -> str:
    area = vote(body).best()
    return area if area != "general" else vote(turn.text).best()


def _units(session: Session) -> Iterator[_Unit]:
    for turn in session.turns:
        if turn.role not in _SOURCES:
            continue
        cursor = 0
        for sentence in sentences(turn.text):
            start = turn.text.find(sentence, cursor)
            cursor = start + len(sentence)
            body = body_of(sentence)
            if body and not is_question(body):
                yield _Unit(turn, sentence, body, start, cursor)


def _kind(j: Judgement) -> str:
    if j.act is Act.PREFERENCE:
        return "preference"
    if j.act is Act.FAILED_ATTEMPT:
        return "failed_approach"
    # A rule the kind head calls a failed approach ("X is dead for us, don't try it again") or a
    # preference keeps that kind: on the tuning sets' labelled quotes 0.599 of kinds right, 0.574
    # when every rule was one of the six rule kinds.
    return j.kind or "decision"


def _candidate(session: Session, unit: _Unit, kind: str, attrs: dict[str, object], *, confidence: float,
               extractor: str, modality: Modality, also: Evidence | None = None) -> Candidate:  # fmt: skip
    area = _area(unit.body, unit.turn)
    quote = Evidence(quote=unit.sentence, session_id=session.id, turn_index=unit.turn.index, role=unit.turn.role)
    return Candidate(
        kind=kind,
        statement=_statement(unit.body),
        attributes={**attrs, "area": area},
        evidence=[quote, *([also] if also else [])],
        confidence=round(min(0.95, confidence), 3),
        asserted_by=Role.USER if also is not None or unit.turn.role is Role.USER else unit.turn.role,
        modality=modality,
        extractor=extractor,
        tags=[f"area:{area}"],
        check=derive_patterns(unit.body) if kind in CHECKABLE else None,
    )


def _agreement(session: Session, turn: Turn) -> Evidence | None:
    """The person's next turn, when all it does is agree ("yes, do that", "ok, go with it"): a
    reply that goes on to anything else — thanks and a goodbye, a question, another topic, its
    own wording of the rule — agrees with nothing in particular."""
    after = next((t for t in session.turns if t.index > turn.index and t.role is not Role.TOOL), None)
    if after is None or after.role is not Role.USER or len(after.text.split()) > _SHORT_REPLY:
        return None
    said = list(sentences(after.text))
    if len(said) != 1 or "?" in said[0] or (m := _AGREES.search(said[0])) is None:
        return None
    rest = {w.lower() for w in re.findall(r"[A-Za-z']+", said[0][m.end() :])}
    if not rest <= _AGREEING:
        return None
    return Evidence(quote=said[0], session_id=session.id, turn_index=after.index, role=Role.USER)


_DURABLE = (Act.RULE, Act.PREFERENCE, Act.FAILED_ATTEMPT)


def _is_durable(unit: _Unit, j: Judgement) -> bool:
    return unit.turn.role is Role.USER and j.act in _DURABLE and j.p(*_DURABLE) >= THRESHOLD


def _runs(units: list[_Unit], judgements: list[Judgement]) -> Iterator[tuple[_Unit, Judgement]]:
    """The person's durable sentences, adjacent ones of one turn joined into one span: a rule
    said in two sentences ("ruff format only, no black. And type hints on every public function")
    is one candidate quoting both, judged by its surest sentence."""
    run: list[tuple[_Unit, Judgement]] = []
    for i, (unit, j) in enumerate(zip(units, judgements, strict=True)):
        if not _is_durable(unit, j):
            continue
        if run and run[-1][0].turn is unit.turn and units[i - 1] is run[-1][0]:
            run.append((unit, j))
            continue
        if run:
            yield _join(run)
        run = [(unit, j)]
    if run:
        yield _join(run)


def _join(run: list[tuple[_Unit, Judgement]]) -> tuple[_Unit, Judgement]:
    unit = run[0][0]
    for other, _ in run[1:]:
        unit = unit.joined(other)
    return unit, max((j for _, j in run), key=lambda j: j.p(*_DURABLE))


@dataclass(frozen=True)
class Judged:
    """A person's durable sentence as a candidate, with what the keep model reads of it."""

    candidate: Candidate
    judgement: Judgement
    where: Placement


def _read(session: Session, judge: SentenceJudge) -> tuple[list[_Unit], list[Judgement]]:
    units = list(_units(session))
    return units, judge.judge([(u.body, u.turn.role) for u in units])


def judged(session: Session, judge: SentenceJudge) -> list[Judged]:
    """The person's durable sentences as candidates, before the keep model (raises
    ModelUnavailable without the judge's weights)."""
    return _durable(session, *_read(session, judge))


def _durable(session: Session, units: list[_Unit], judgements: list[Judgement]) -> list[Judged]:
    out = []
    for unit, j in _runs(units, judgements):
        kind = _kind(j)
        modality = Modality.DONE if kind == "failed_approach" else Modality.DECIDED
        candidate = _candidate(session, unit, kind, attributes(kind, unit.body), confidence=j.p(*_DURABLE),
                               extractor="heuristic:judge", modality=modality)  # fmt: skip
        out.append(Judged(candidate, j, placement(session, unit.turn, unit.sentence)))
    return out


def _kept(session: Session, found: list[Judged]) -> list[Candidate]:
    """The candidates, those below the keep model's threshold flagged `UNLIKELY` (the validator
    files them where the inbox shows what it filtered); outside a conversation or without the
    model's weights, the judge's threshold alone. Confidence stays the judge's: what review and
    checks read of it keeps its meaning."""
    if not is_conversation(session):
        return [f.candidate for f in found]
    try:
        model = keep_model(*KEEP)
    except ModelUnavailable as exc:
        log.warning("keep model unavailable, keeping every durable sentence: %s", exc)
        return [f.candidate for f in found]
    out = []
    for f in found:
        p = model.probability(f.judgement, f.where)
        out.append(f.candidate if p >= model.threshold else f.candidate.model_copy(update={"flags": [Flag.UNLIKELY]}))
    return out


def _judged(session: Session, judge: SentenceJudge) -> list[Candidate]:
    units, judgements = _read(session, judge)
    found = _kept(session, _durable(session, units, judgements))
    for unit, j in zip(units, judgements, strict=True):
        if unit.turn.role is Role.USER:
            continue
        # The agent: its rule-like sentence counts only when the person agrees right after.
        if j.act not in (Act.RULE, Act.PREFERENCE, Act.PROPOSAL) or j.p(Act.RULE, Act.PREFERENCE, Act.PROPOSAL) < 0.6:
            continue
        agreed = _agreement(session, unit.turn)
        if agreed is None:
            continue
        kind = j.kind if j.kind in _RULE_KINDS else "decision"
        found.append(_candidate(session, unit, kind, attributes(kind, unit.body), confidence=0.6,
                                extractor="heuristic:judge", modality=Modality.DECIDED, also=agreed))  # fmt: skip
    return _one_per_turn_rule(found)


def _one_per_turn_rule(found: list[Candidate]) -> list[Candidate]:
    """An agent sentence confirmed by one "yes" is kept once per agent turn: the turn's last such
    sentence, the one the person was answering."""
    last: dict[int, Candidate] = {}
    out: list[Candidate] = []
    for c in found:
        ev = c.evidence[0]
        if ev.role is Role.AGENT and ev.turn_index is not None:
            last[ev.turn_index] = c  # agent sentences come in turn order
            continue
        out.append(c)
    return out + list(last.values())


def _phrased(session: Session) -> list[Candidate]:
    """The fallback without the judge: phrase rules and the old skip lists."""
    found: list[Candidate] = []
    for unit in _units(session):
        body = unit.body
        if is_deferred(body) or is_transient(body):
            continue
        if unit.turn.role is Role.AGENT and is_agent_chatter(body):
            continue
        match = classify(body)
        if match is None:
            continue
        conf = 0.75 if unit.turn.role is Role.USER else 0.5
        modality = Modality.DONE if match.kind == "failed_approach" else (
            Modality.DECIDED if unit.turn.role is Role.USER else Modality.PROPOSED)  # fmt: skip
        found.append(_candidate(session, unit, match.kind, dict(match.attributes), confidence=conf,
                                extractor="heuristic:phrases", modality=modality))  # fmt: skip
    return found


def extract(session: Session, judge: SentenceJudge | None = None) -> list[Candidate]:
    """Candidates from a session's user and agent turns, in order, one per sentence at most."""
    try:
        found = _judged(session, judge or shared_judge())
    except ModelUnavailable as exc:
        log.warning("sentence judge unavailable, using phrase rules: %s", exc)
        found = _phrased(session)
    found.sort(key=lambda c: c.evidence[0].turn_index or 0)
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for candidate in found:
        key = (candidate.kind, candidate.statement.casefold())
        if key not in seen:
            seen.add(key)
            out.append(candidate)
    return out
