"""The support app's heuristic extractor: who suggested, tried, saw fail, or confirmed what.

Agent turns yield only `action_suggested` (a step the agent proposes; not one it narrates, forbids
or makes conditional) and, asserted by the agent, claims that the issue is resolved. Customer turns
yield problems, attempts, outcomes, resolutions and regressions:

- an attempt needs the customer's own past tense or perfect ("I restarted", "I've updated", "after I
  re-paired", "tried clearing") or a reference back to the agent's last suggestion ("did that",
  "cleared it"); plans, questions and negations ("I'll try that", "should I...?", "haven't tried")
  are never attempts;
- an outcome needs a step to attach to: one named in the sentence, else one attempted earlier in
  the turn, else (for "that didn't help" / "that fixed it", not for a bare "still") the agent's last
  suggestion when it was a single step or the customer says "both"; an outcome implies the attempt;
- a resolution is only an explicit success ("that fixed it", "works now"); a success told as history
  ("it fixed it in March") names the fix of a regression instead;
- a regression is a symptom or "the problem" with "again" / "is back" / "came back".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from forethought.apps.support import text as t
from forethought.apps.support.actions import ActionMention, action_label, action_stems, find_actions
from forethought.domain import Evidence, Role, Session, Turn
from forethought.domain.candidates import Candidate, Flag
from forethought.text.sentences import sentences
from forethought.text.slugs import tag_value

__all__ = ["extract"]

_KB = re.compile(
    r"\b(?:knowledge\s+base|kb|help\s+(?:center|centre)|(?:support|help|kb)\s+article|our\s+(?:docs|documentation|"
    r"guide)|according\s+to\s+(?:our|the)\s+(?:guide|article|documentation|docs))\b",
    re.I,
)
_CLAIM = re.compile(
    r"(?:\b(?:is|are|has\s+been|have\s+been|now)|'s)\s+(?:now\s+)?(?:fully\s+|all\s+)?(?:resolved|fixed|sorted)\b|"
    r"\bmarked\s+(?:this|it|the|your)(?:\s+(?:ticket|case|issue))?\s+as\s+(?:resolved|solved|closed)\b",
    re.I,
)
_REGRESSION_HEDGE = re.compile(r"\b(?:if|in\s+case|whenever|hasn't|haven't|has\s+not|no\s+longer|won't|never)\b", re.I)
_NETWORK = r"router|modem|wi-?fi|internet"
_IRREGULAR = {"run": "ran", "do": "did", "take": "took", "swap": "swapped", "reset": "reset"}
_ALL = re.compile(r"\b(?:both|all\s+of\s+(?:them|those|that)|all\s+(?:those|three|the\s+steps)|everything)\b", re.I)
# "Have you tried X?" proposes X; it does not narrate an attempt.
_ASKED = re.compile(r"\b(?:have|did)\s+you\s+(?:already\s+)?tr(?:ied|y)\b", re.I)


@dataclass
class _State:
    session: Session
    found: dict[tuple[object, ...], Candidate] = field(default_factory=dict)
    problem: str | None = None
    product: str | None = None
    suggested: list[str] = field(default_factory=list)  # the agent's latest suggestions
    verbs: dict[str, set[str]] = field(default_factory=dict)  # the verbs the agent used for them
    user_resolved: bool = False

    def add(
        self,
        turn: Turn,
        quote: str,
        kind: str,
        statement: str,
        attributes: dict[str, object],
        confidence: float,
        flags: tuple[Flag, ...] = (),
    ) -> None:
        key = (kind, turn.role, *(str(v).casefold() for k, v in sorted(attributes.items()) if k != "problem"))
        evidence = Evidence(quote=quote, session_id=self.session.id, turn_index=turn.index, role=turn.role)
        if key in self.found:
            existing = self.found[key]
            if evidence not in existing.evidence:
                self.found[key] = existing.model_copy(update={"evidence": [*existing.evidence, evidence]})
            return
        tags = [f"{name}:{tag_value(str(value))}" for name in ("action", "product") if (value := attributes.get(name))]
        self.found[key] = Candidate(
            kind=kind,
            statement=statement,
            attributes=attributes,
            evidence=[evidence],
            confidence=confidence,
            asserted_by=turn.role,
            tags=tags,
            flags=list(flags),
        )


def _name(state: _State, mention: ActionMention, sentence: str) -> str:
    """The mention's canonical action; "restart it" / "reset it" on a router problem restarts the router."""
    name = mention.action.name
    said = sentence[mention.start : mention.end].lower()
    pronoun = re.search(r"\b(?:it|them)$", said)
    if name in ("restart device", "factory reset") and pronoun and re.search(_NETWORK, state.problem or ""):
        return "restart router"
    return name


def _agent_turn(state: _State, turn: Turn) -> None:
    by = "kb" if _KB.search(turn.text) else "agent"
    suggested: list[str] = []
    for sentence in sentences(turn.text):
        for mention in find_actions(sentence):
            if t.AGENT_HOLD.search(_ASKED.sub("", t.phrase_prefix(sentence, mention.start))):
                continue
            name = _name(state, mention, sentence)
            suggested.append(name)
            verb = re.sub(r"(?:ing|ed|s)$", "", sentence[mention.start : mention.end].split()[0].lower())
            state.verbs.setdefault(name, set()).update({verb, *action_stems(name)})
            who = "The knowledge base" if by == "kb" else "The agent"
            state.add(
                turn,
                sentence,
                "action_suggested",
                f"{who} suggested {action_label(name)}.",
                {"action": name, "by": by},
                confidence=0.9,
            )
        claim = _CLAIM.search(sentence)
        if claim and not state.user_resolved and not t.HEDGE.search(t.clause_prefix(sentence, claim.start())):
            state.add(
                turn,
                sentence,
                "resolution_confirmed",
                "The agent said the issue is resolved (not confirmed by the customer).",
                {"action": None, "problem": state.problem},
                confidence=0.4,
                flags=(Flag.AGENT_ONLY,),
            )
    if suggested:
        state.suggested = list(dict.fromkeys(suggested))


def _referred(state: _State, sentence: str) -> list[str]:
    """The agent's suggestions a customer sentence refers back to ("did that", "cleared it")."""
    if not state.suggested:
        return []
    back = t.REFER_BACK.search(sentence)
    if back is None and (noun := t.REFER_NOUN.search(sentence)):
        said = noun.group("noun").lower().rstrip("s")
        named = [n for n in state.suggested if said in n.split() or said in state.verbs.get(n, ())]
        if named and not t.NEGATION.search(t.clause_prefix(sentence, noun.start())):
            return named
    if back is None:
        forms = {f for n in state.suggested for v in state.verbs.get(n, ()) for f in (rf"{v}\w*ed", _IRREGULAR.get(v))}
        alternatives = "|".join(sorted(f for f in forms if f))
        back = re.search(rf"\b(?:{alternatives})\s+(?:it|that|them|those|this|both)\b", sentence, re.I)
    if (
        back is None
        or t.HEDGE.search(t.clause_prefix(sentence, back.start()))
        or t.NEGATION.search(t.clause_prefix(sentence, back.start()))
    ):
        return []
    return _pick(state, back.group(0))


def _pick(state: _State, said: str) -> list[str]:
    if len(state.suggested) == 1 or _ALL.search(said):
        return list(state.suggested)
    return []


def _user_turn(state: _State, turn: Turn) -> None:
    tried: list[str] = []
    regression: tuple[str, dict[str, object]] | None = None
    for sentence in sentences(turn.text):
        mentions = [
            m for m in find_actions(sentence) if not t.SYMPTOM_USE.search(sentence[max(0, m.start - 40) : m.start])
        ]
        names = {id(m): _name(state, m, sentence) for m in mentions}
        outside = sentence
        for m in mentions:  # blank the steps out: "pair it again" is not a recurrence
            outside = outside[: m.start] + " " * (m.end - m.start) + outside[m.end :]
        symptoms = t.symptoms(outside)
        recurred = symptoms or re.search(r"\b(?:problem|issue)\b", outside, re.I)
        if t.RECURRED.search(outside) and recurred and not _REGRESSION_HEDGE.search(sentence):
            action = next((names[id(m)] for m in mentions), None)
            regression = (sentence, _regression(state, sentence, symptoms, action))
            continue
        if state.problem is None and (symptoms or (t.complaint(outside) and (t.product(sentence) or not tried))):
            _problem(state, turn, sentence, symptoms or ["other"])
        done = [m for m in mentions if t.attempted(sentence, m.start, m.end)]
        attempts = [names[id(m)] for m in done]
        if any(_ALL.search(sentence[m.start : m.end]) for m in done):
            attempts = [*attempts, *_pick(state, "both")]
        attempts = list(dict.fromkeys([*attempts, *_referred(state, sentence)]))
        for name in attempts:
            _attempt(state, turn, sentence, name)
        outcome, referential = t.outcome(sentence, state.problem)
        stated = [names[id(m)] for m in mentions if t.stated(sentence, m.start)]
        targets = list(dict.fromkeys(attempts + stated)) or list(tried)
        if not targets and referential:
            targets = _pick(state, sentence)
        tried.extend(a for a in attempts if a not in tried)
        if outcome == "succeeded" and t.HISTORY.search(sentence):
            # A fix told as history: it names what stopped working, it is not a resolution now.
            if regression is not None and regression[1].get("action") is None and targets:
                regression[1]["action"] = targets[0]
            continue
        if outcome is not None:
            for name in targets:
                _attempt(state, turn, sentence, name)
                _report(state, turn, sentence, name, outcome)
            if outcome == "succeeded":
                _resolved(state, turn, sentence, targets)
    if regression is not None:
        _emit_regression(state, turn, *regression)


def _problem(state: _State, turn: Turn, sentence: str, symptoms: list[str]) -> None:
    product = t.product(sentence)
    state.product = product
    state.problem = f"{product}: {', '.join(symptoms)}" if product else ", ".join(symptoms)
    state.add(
        turn,
        sentence,
        "problem_reported",
        f"The customer reported: {sentence.rstrip('.!')}.",
        {"summary": sentence[:300], "product": product, "symptoms": symptoms},
        confidence=0.8,
    )


def _regression(state: _State, sentence: str, symptoms: list[str], action: str | None) -> dict[str, object]:
    product = t.product(sentence) or state.product
    if state.problem is None:
        state.product = product
        state.problem = f"{product}: {', '.join(symptoms)}" if product else ", ".join(symptoms) or sentence[:120]
    return {"summary": sentence[:300], "product": product, "action": action}


def _emit_regression(state: _State, turn: Turn, sentence: str, attributes: dict[str, object]) -> None:
    action = attributes.get("action")
    after = f" after {action_label(str(action))} had fixed it" if action else ""
    state.add(
        turn,
        sentence,
        "regression",
        f"The problem came back{after}: {sentence.rstrip('.!')}.",
        attributes,
        confidence=0.75,
    )


def _attempt(state: _State, turn: Turn, sentence: str, name: str) -> None:
    state.add(
        turn,
        sentence,
        "action_attempted",
        f"The customer tried {action_label(name)}.",
        {"action": name, "problem": state.problem},
        confidence=0.8,
    )


def _report(state: _State, turn: Turn, sentence: str, name: str, outcome: str) -> None:
    verdict = {"failed": "did not fix the problem", "succeeded": "fixed the problem", "partial": "only partly helped"}
    state.add(
        turn,
        sentence,
        "outcome_reported",
        f"The customer said {action_label(name)} {verdict[outcome]}.",
        {"action": name, "outcome": outcome, "problem": state.problem},
        confidence=0.8,
    )


def _resolved(state: _State, turn: Turn, sentence: str, targets: list[str]) -> None:
    state.user_resolved = True
    fixes: list[str | None] = [*targets] or [None]
    for name in fixes:
        by = f" by {action_label(name)}" if name else ""
        state.add(
            turn,
            sentence,
            "resolution_confirmed",
            f"The customer confirmed the problem was fixed{by}.",
            {"action": name, "problem": state.problem},
            confidence=0.85,
        )


def extract(session: Session) -> list[Candidate]:
    """Candidates from every turn of `session` (see the module docstring)."""
    state = _State(session)
    for turn in session.turns:
        if turn.role is Role.AGENT:
            _agent_turn(state, turn)
        elif turn.role is Role.USER:
            _user_turn(state, turn)
    return list(state.found.values())
