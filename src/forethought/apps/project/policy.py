"""Applicability for the brief and policy findings for the check, by rule.

Applicability: a record applies to a task when the task names one of the record's code
identifiers (PrismaClient, lib/db.ts, X-ApexCart-CSRF), or touches the record's area by its words
or file paths ("src/auth/session.ts" touches auth). It does not apply when the task clearly touches
other areas only. A "general" record, or a task that names no area, is left to the generic judge.

Policy findings: a draft that proposes again an approach recorded as failed, or an alternative a
decision rejected, gets a warning quoting the draft's sentence or line verbatim. "Proposes" is
token overlap: the approach's identifiers (weight 2) and content words (weight 1, lightly stemmed)
found in one segment of the draft, at least 3 points (fewer for a one- or two-word approach) covering
at least half the approach's weight.
A segment that names the approach only to reject it ("instead of Redis", "not ILIKE") is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from forethought.apps.base import Applicability, PolicyFinding
from forethought.apps.project.areas import AreaVote, code_identifiers, vote
from forethought.apps.project.kinds import KINDS
from forethought.apps.project.text import segments
from forethought.domain import Record

__all__ = ["applicability", "policy_findings"]

_LABELS = {
    "decision": "decision",
    "convention": "convention",
    "constraint": "constraint",
    "preference": "preference",
    "failed_approach": "failed approach",
    "dependency_policy": "dependency policy",
    "process": "process rule",
    "architecture": "architecture rule",
}


def _record_area(record: Record) -> str:
    area = record.attributes.get("area")
    return area if isinstance(area, str) and area else vote(record.statement).best()


def _describe(area: str, kind: str) -> str:
    phrase = f"{area} {_LABELS.get(kind, kind)}"
    return ("an " if phrase[0] in "aeiou" else "a ") + phrase


def _mentions(text: str, token: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])", text, re.I) is not None


def _evidence(task_vote: AreaVote, area: str, limit: int = 3) -> str:
    terms = sorted(task_vote.hits.get(area, []), key=lambda t: "/" not in t)  # paths first
    return ", ".join(terms[:limit])


def applicability(task: str, record: Record) -> Applicability | None:
    """Whether a project record applies to a task, with the reason; None when rules cannot tell."""
    if record.kind not in KINDS:
        return None
    area = _record_area(record)
    what = _describe(area, record.kind)
    named = [token for token in code_identifiers(record.statement) if len(token) >= 3 and _mentions(task, token)]
    if named:
        return Applicability(applies=True, reason=f"task mentions {', '.join(named[:3])}; the record is {what}")
    task_vote = vote(task)
    if area in task_vote.scores:
        return Applicability(
            applies=True, reason=f"task touches {area} ({_evidence(task_vote, area)}); the record is {what}"
        )
    if area == "general" or not task_vote.scores:
        return None
    touched = "; ".join(f"{a} ({_evidence(task_vote, a, 2)})" for a in task_vote.areas()[:2])
    return Applicability(applies=False, reason=f"task touches {touched}; the record is {what}")


# -- findings ----------------------------------------------------------------------------------
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*")
_STOP = frozenset(
    str.split(
        "the and for with that this from into onto our their your its was were are is be been being have has had "
        "we i you they it them then than but not too very also just only more most some any all each every "
        "use using used try tried trying make made keep keeping put add adding set setting get run running "
        "last week month year spring summer autumn winter day days time times before after when while "
        "about over under again still new old one two per via way"
    )
)
_REJECTING = re.compile(r"\b(?:not|don'?t|never|instead\s+of|avoid\w*|without|rather\s+than|no\s+longer)\b", re.I)


def _stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True)
class _Fingerprint:
    identifiers: tuple[str, ...]
    stems: frozenset[str]

    @property
    def weight(self) -> int:
        return 2 * len(self.identifiers) + len(self.stems)


def _fingerprint(text: str) -> _Fingerprint:
    ids = tuple(t for t in code_identifiers(text) if len(t) >= 4)
    id_words = {_stem(w) for t in ids for w in _WORD.findall(t)}
    stems = frozenset(
        _stem(w) for w in _WORD.findall(text) if len(w) >= 3 and w.lower() not in _STOP and _stem(w) not in id_words
    )
    return _Fingerprint(ids, stems)


def _overlap(fp: _Fingerprint, segment: str) -> int:
    score = sum(2 for t in fp.identifiers if _mentions(segment, t))
    return score + len(fp.stems & _stems(segment))


@lru_cache(maxsize=2048)  # each segment of a draft is weighed against every failed or rejected record
def _stems(segment: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in _WORD.findall(segment))


def _reproposal(draft: str, text: str) -> str | None:
    """The draft's first segment that proposes `text` again, verbatim, or None."""
    fp = _fingerprint(text)
    if fp.weight == 0:
        return None
    need = min(3, fp.weight)  # a one-word alternative ("Algolia") is proposed again by naming it
    for segment in segments(draft):
        score = _overlap(fp, segment)
        if score >= need and 2 * score >= fp.weight and not _REJECTING.search(segment):
            return segment
    return None


def policy_findings(draft: str, records: Sequence[Record]) -> list[PolicyFinding]:
    """Warnings for a draft that re-proposes a failed approach or a rejected alternative."""
    findings: list[PolicyFinding] = []
    for record in records:
        attrs = record.attributes
        if record.kind == "failed_approach":
            approach = str(attrs.get("approach") or record.statement)
            excerpt = _reproposal(draft, approach)
            if excerpt is not None:
                why = attrs.get("why_failed")
                findings.append(
                    PolicyFinding(
                        record_id=record.id,
                        excerpt=excerpt,
                        severity="warning",
                        message=f"Proposes an approach that failed before: {approach}"
                        + (f" (it failed because {why})" if why else ""),
                        suggestion=f"Read record {record.handle} before repeating it; choose another approach "
                        "or say what has changed since it failed.",
                    )
                )
        elif record.kind == "decision":
            for alternative in attrs.get("alternatives_rejected") or []:
                excerpt = _reproposal(draft, str(alternative))
                if excerpt is not None:
                    findings.append(
                        PolicyFinding(
                            record_id=record.id,
                            excerpt=excerpt,
                            severity="warning",
                            message=f"Proposes {alternative}, which the team rejected: {record.statement}",
                            suggestion=f"Follow decision {record.handle} ({attrs.get('what') or record.statement}) "
                            "or ask for it to be superseded.",
                        )
                    )
    return findings
