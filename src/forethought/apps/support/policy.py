"""Support policy: which records apply to a task, and what a draft reply must not do.

Findings (every excerpt is a sentence of the draft, verbatim):
- recommending a step whose canonical form failed before (an `outcome_reported` failed, or an
  `action_attempted` after which the problem was reported again with no success for it) → error
  "already tried and failed", with a next step from the same area that has not been tried;
- recommending a step that only partly helped → warning;
- telling the customer the issue is resolved while no resolution is confirmed (by the customer,
  or by a person who reviewed it) since the last regression → warning.
A step the draft mentions as already done ("since restarting didn't help", "you've already
re-paired") is not a recommendation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import datetime

from forethought.apps.base import Applicability, PolicyFinding
from forethought.apps.support.actions import action_label, find_actions, next_step, normalise_action
from forethought.apps.support.text import AGENT_HOLD, phrase_prefix, product, symptoms
from forethought.domain import Record, Role, Status
from forethought.text.sentences import sentences

__all__ = ["support_applicability", "support_findings"]

_CLAIMS_RESOLVED = re.compile(
    r"\b(?:is|are|has\s+been|have\s+been|now)\s+(?:now\s+)?(?:fully\s+|all\s+)?(?:resolved|fixed|sorted)\b|"
    r"\bglad\s+(?:that|it|we)\b[^.!?]{0,30}\b(?:fixed|resolved|sorted|working)\b|\b(?:closing|marked?|mark)\s+"
    r"(?:this|the|your)\s+(?:ticket|case|issue)\b|\bproblem\s+solved\b",
    re.I,
)
_HEDGED = re.compile(r"\b(?:should|might|may|will|if|once|hopefully|whether|until|when)\b|'ll\b", re.I)
_TROUBLESHOOTING = re.compile(
    r"\b(?:fix|try|tried|help|not\s+working|still|again|issue|problem|keeps?|won't|can't|error|suggest|next\s+step|"
    r"troubleshoot\w*|broken|stopped)\b",
    re.I,
)
_WORD = re.compile(r"[a-z][a-z0-9-]+")
_GENERIC = frozenset(["the", "my", "your", "a", "an", "and", "or", "of", "to", "in", "on", "with", "it", "is"])


def _current(records: Sequence[Record], kind: str) -> list[Record]:
    return [r for r in records if r.kind == kind and r.status in (Status.ACTIVE, Status.CANDIDATE)]


def _action(record: Record) -> str | None:
    action = record.attributes.get("action")
    return normalise_action(str(action)) if action else None


def _when(record: Record) -> tuple[datetime, int]:
    turn = max((e.turn_index or 0 for e in record.evidence), default=0)
    return record.occurred_at, turn


def _failed_steps(records: Sequence[Record]) -> tuple[dict[str, Record], dict[str, Record]]:
    """(failed, partial): canonical action → the record that says so."""
    failed: dict[str, Record] = {}
    partial: dict[str, Record] = {}
    worked: set[str] = set()
    for record in _current(records, "outcome_reported"):
        if (name := _action(record)) is None:
            continue
        outcome = record.attributes.get("outcome")
        target = failed if outcome == "failed" else partial if outcome == "partial" else None
        if target is not None:
            target.setdefault(name, record)
        else:
            worked.add(name)
    worked.update(n for r in _current(records, "resolution_confirmed") if (n := _action(r)))
    recurrences = [_when(r) for r in _current(records, "regression") + _current(records, "problem_reported")]
    for record in _current(records, "action_attempted"):
        name = _action(record)
        if name and name not in worked and name not in failed and any(w > _when(record) for w in recurrences):
            failed[name] = record
    return failed, partial


def _recommended(draft: str) -> Iterator[tuple[str, str]]:
    """(sentence, canonical action) for each step the draft proposes rather than recalls."""
    for sentence in sentences(draft):
        for mention in find_actions(sentence):
            if not AGENT_HOLD.search(phrase_prefix(sentence, mention.start)):
                yield sentence, mention.action.name


def _confirmed_since_regression(records: Sequence[Record]) -> bool:
    confirmed = [
        _when(r)
        for r in _current(records, "resolution_confirmed")
        if r.provenance.asserted_by is Role.USER or r.provenance.reviewed_by
    ]
    regressions = [_when(r) for r in _current(records, "regression")]
    return bool(confirmed) and (not regressions or max(confirmed) >= max(regressions))


def support_findings(draft: str, records: Sequence[Record]) -> list[PolicyFinding]:
    """Every support rule the draft breaks given `records` (see the module docstring)."""
    failed, partial = _failed_steps(records)
    tried = {n for r in records if r.kind in ("action_attempted", "outcome_reported") if (n := _action(r))}
    findings: list[PolicyFinding] = []
    for sentence, name in _recommended(draft):
        if name in failed:
            findings.append(
                PolicyFinding(
                    record_id=failed[name].id,
                    excerpt=sentence,
                    severity="error",
                    message=f"already tried and failed: {action_label(name)}",
                    suggestion=f"Acknowledge that {action_label(name)} did not help and suggest a next step "
                    f"instead, such as {next_step(tried, name)}.",
                )
            )
        elif name in partial:
            findings.append(
                PolicyFinding(
                    record_id=partial[name].id,
                    excerpt=sentence,
                    severity="warning",
                    message=f"already tried, and it only partly helped: {action_label(name)}",
                    suggestion=f"Say it was tried; consider {next_step(tried, name)} next.",
                )
            )
    if not _confirmed_since_regression(records):
        anchor = next(iter(_current(records, "regression") + _current(records, "problem_reported")), None)
        for sentence in sentences(draft):
            claim = _CLAIMS_RESOLVED.search(sentence)
            if claim and not sentence.endswith("?") and not _HEDGED.search(sentence[: claim.start()]):
                findings.append(
                    PolicyFinding(
                        record_id=anchor.id if anchor else "",
                        excerpt=sentence,
                        severity="warning",
                        message="the draft says the issue is resolved, but the customer has not confirmed it",
                        suggestion="Ask the customer to confirm the fix instead of declaring it resolved.",
                    )
                )
    return findings


def _terms(text: str) -> set[str]:
    """Product words and symptom names: what makes two problems 'the same problem'."""
    found = set(symptoms(text))
    if said := product(text):
        found.update(w.rstrip("s") for w in _WORD.findall(said.lower()) if w not in _GENERIC)
    return found


def support_applicability(task: str, record: Record) -> Applicability | None:
    """Whether a support record applies to `task`; None leaves the decision to the generic judge."""
    a = record.attributes
    context = (
        " ".join(str(a.get(k) or "") for k in ("problem", "summary", "product"))
        + " "
        + " ".join(a.get("symptoms") or [])
    )
    context_terms = _terms(context) | {w.rstrip("s") for w in _WORD.findall(str(a.get("product") or "").lower())}
    same = sorted(_terms(task) & context_terms)
    name = _action(record)
    named = name is not None and any(m.action.name == name for m in find_actions(task))
    label = action_label(name) if name else ""
    if record.kind in ("outcome_reported", "action_attempted") and (same or named or not context_terms):
        if not (same or named) and not _TROUBLESHOOTING.search(task):
            return None
        outcome = a.get("outcome", "tried")
        why = (
            f"same problem ({', '.join(same)})" if same else "the task names this step" if named else "troubleshooting"
        )
        return Applicability(applies=True, reason=f"{why}: {label} was already {outcome}; do not repeat it blindly")
    if record.kind == "resolution_confirmed" and same:
        fix = f": {label} fixed it" if label else ""
        return Applicability(applies=True, reason=f"a similar problem was resolved before{fix}")
    if record.kind in ("problem_reported", "regression") and same:
        return Applicability(applies=True, reason=f"the same problem was reported before ({', '.join(same)})")
    if record.kind == "action_suggested" and (same or named):
        return Applicability(applies=True, reason=f"{label} was suggested before; check whether it was tried")
    return None
