"""Career policy: when a record applies to a task, and what a draft must not say given the records.

Findings (every excerpt is a sentence of the draft, verbatim):
- recommending a company that rejected the student: for the same role (or with no other role
  named) → error; for another role → warning, unless the sentence acknowledges the rejection;
- recommending applying where an application is already in flight (applied, interviewing) → warning;
- asserting a skill the student said they do not have ("your Python experience") → error;
- recommending what a strong preference rules out (on-site work for a remote-only student, a big
  company for one who avoids them, relocating for one who will not) → warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from forethought.apps.base import Applicability, PolicyFinding
from forethought.apps.career.kinds import UNSPECIFIED_ROLE
from forethought.apps.career.lexicon import INDUSTRIES, skill_pattern
from forethought.domain import Record, Status
from forethought.text.sentences import sentences

__all__ = ["career_applicability", "career_findings"]

_RECOMMEND = re.compile(
    r"\b(?:apply|applying|recommend\w*|suggest\w*|consider\w*|look\s+(?:at|into)|check\s+out|reach\s+out|target\w*|"
    r"go\s+for|(?:great|good|strong|perfect|ideal)\s+(?:fit|match|option|choice)|worth|should|could|try|pursue|"
    r"aim\s+for|shortlist|focus\s+on)\b",
    re.I,
)
_STEER_AWAY = re.compile(
    r"\b(?:skip|avoid|instead\s+of|rather\s+than|other\s+than|except|besides|apart\s+from|not|don't|no\s+longer|"
    r"excluding|leave\s+out|drop|since\s+you|given\s+(?:your|that)|because\s+you)\b",
    re.I,
)
_ACKNOWLEDGED = re.compile(
    r"\b(?:reject\w*|turned\s+you\s+down|passed\s+on\s+you|re-?apply\w*|previous\s+application)\b", re.I
)
_APPLY = re.compile(r"\b(?:apply|applying|application|submit)\b", re.I)
_ROLE_WORDS = re.compile(
    r"\b(?:[\w+#/-]+\s+){1,3}(?:intern(?:ship)?|engineer|developer|analyst|scientist|designer|manager|researcher|role|"
    r"position)s?\b",
    re.I,
)
_ASSERTS_SKILL = re.compile(
    r"(?:\byour|\byou(?:'ve|\s+have)?\s+(?:already\s+)?(?:know|used|mastered|worked\s+with|experience\s+(?:with|in))|"
    r"\byou(?:'re|\s+are)\s+(?:\w+\s+)?(?:good|great|strong|proficient|skilled|fluent|experienced|comfortable|solid|"
    r"an?\s+expert)\s+(?:at|in|with)|\b(?:since|as|because)\s+you\s+(?:know|have)|\bgiven\s+(?:that\s+you\s+know)|"
    r"\bwith\s+your|\byou\s+have)\s+(?:[\w+#.-]+\s+){0,3}?$",
    re.I,
)
_NOT_ASSERTING = re.compile(
    r"\b(?:lack\w*|missing|gaps?|learn\w*|don't|do\s+not|doesn't|new\s+to|no\s+experience|without|haven't|never|"
    r"pick\s+up|study|studying)\b",
    re.I,
)
_GAP_AFTER = re.compile(r"^\W*(?:\w+\s+)?(?:gap|is\s+a\s+gap|isn't|is\s+not|knowledge\s+gap|basics)\b", re.I)
_TERMS = {
    "remote": r"\bremote(?:ly)?\b|\bwork(?:ing)?\s+from\s+home\b",
    "onsite": r"\bon-?site\b|\bin[- ]person\b|\bin[- ]office\b|\bin\s+the\s+office\b",
    "hybrid": r"\bhybrid\b",
    "large": r"\b(?:big|large|huge)\s+(?:tech\s+)?(?:compan(?:y|ies)|corporations?|firms?|enterprises?)\b|"
    r"\bbig\s+tech\b|\bfaang\b|\bcorporates?\b",
    "small": r"\bstart-?ups?\b|\bsmall\s+(?:compan(?:y|ies)|firms?|teams?)\b",
    "medium": r"\bmid-?size(?:d)?\b",
    "relocation": r"\brelocat\w*|\bmove\s+to\b|\bmoving\s+to\b",
}
_OPPOSITE = {
    ("work_mode", "remote"): "onsite",
    ("work_mode", "onsite"): "remote",
    ("company_size", "small"): "large",
    ("company_size", "large"): "small",
}

_TASK_RECOMMEND = re.compile(
    r"\b(?:where\s+(?:should|could|else|to)|recommend\w*|suggest\w*|compan(?:y|ies)|roles?|jobs?|internships?|"
    r"positions?|openings?|apply|applying|applications?|offers?|opportunit\w+|career|next\s+steps?|options?)\b",
    re.I,
)
_TASK_PROFILE = re.compile(
    r"\b(?:resume|résumé|cv|cover\s+letter|portfolio|linkedin|interview\w*|profile|projects?|experience|skills?|gaps?|"
    r"learn\w*|study|courses?|improve|prepare|prep|ready|qualif\w+|requirements?|stack|languages?)\b",
    re.I,
)


def _current(records: Sequence[Record], kind: str) -> Iterator[tuple[Record, dict[str, Any]]]:
    for record in records:
        if record.kind == kind and record.status in (Status.ACTIVE, Status.CANDIDATE):
            yield record, record.attributes


def _company_pattern(company: str) -> re.Pattern[str]:
    first = company.split()[0]
    names = [company] + ([first] if " " in company and len(first) >= 4 else [])
    return re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in names), re.I)


def _finding(record: Record, excerpt: str, severity: str, message: str, suggestion: str) -> PolicyFinding:
    return PolicyFinding(
        record_id=record.id,
        excerpt=excerpt,
        severity="error" if severity == "error" else "warning",
        message=message,
        suggestion=suggestion,
    )


def _application_findings(draft: str, records: Sequence[Record]) -> Iterator[PolicyFinding]:
    for record, a in _current(records, "application"):
        company, status = str(a.get("company", "")), a.get("status")
        role = str(a.get("role") or UNSPECIFIED_ROLE)
        if not company or status not in ("rejected", "applied", "interviewing"):
            continue
        mentions = _company_pattern(company)
        for text in sentences(draft):
            if not mentions.search(text) or not _RECOMMEND.search(text) or _STEER_AWAY.search(text):
                continue
            role_words = [w for w in role.split() if w != "intern"] if role != UNSPECIFIED_ROLE else []
            same_role = bool(role_words) and all(re.search(rf"\b{re.escape(w)}", text, re.I) for w in role_words)
            other_role = any(
                not role_words or not all(w in m.group(0).lower() for w in role_words)
                for m in _ROLE_WORDS.finditer(text)
            )
            acknowledged = bool(_ACKNOWLEDGED.search(text))
            if status == "rejected":
                if other_role and acknowledged:
                    continue
                severe = not acknowledged and (same_role or not other_role)
                yield _finding(
                    record,
                    text,
                    "error" if severe else "warning",
                    f"{company} rejected the student" + (f" for {role}" if role != UNSPECIFIED_ROLE else ""),
                    "Do not recommend the same role again; if another role there fits, say so and acknowledge "
                    "the rejection."
                    if severe
                    else "Acknowledge the earlier rejection when suggesting another role at this company.",
                )
            elif _APPLY.search(text) and (same_role or not other_role) and not acknowledged:
                yield _finding(
                    record,
                    text,
                    "warning",
                    f"The student already has an application with {company} ({status})",
                    "Acknowledge the application in progress instead of recommending it again.",
                )


def _asserts(text: str, mention: re.Match[str]) -> bool:
    """Whether the words around a skill's mention credit the student with it ("your Python skills")."""
    before = text[max(0, mention.start() - 60) : mention.start()]
    after = text[mention.end() : mention.end() + 25]
    if _NOT_ASSERTING.search(before) or _GAP_AFTER.search(after):
        return False
    return bool(_ASSERTS_SKILL.search(before))


def _skill_findings(draft: str, records: Sequence[Record]) -> Iterator[PolicyFinding]:
    for record, a in _current(records, "skill"):
        name = str(a.get("name", ""))
        if not name or a.get("has", True) is not False:
            continue
        pattern = skill_pattern(name)
        for text in sentences(draft):
            if any(_asserts(text, m) for m in pattern.finditer(text)):
                yield _finding(
                    record,
                    text,
                    "error",
                    f"The draft assumes the student knows {name}; they said they do not",
                    f"Treat {name} as a gap to learn, not a strength.",
                )


def _preference_terms(topic: str, value: str, avoid: bool) -> str | None:
    if avoid:
        if topic == "industry":
            return "|".join(rf"\b{re.escape(k)}\b" for k, v in INDUSTRIES.items() if v == value.lower()) or None
        if topic in ("role", "location") and value.lower() not in _TERMS:
            return rf"\b{re.escape(value)}s?\b"
        return _TERMS.get(value.lower())
    if topic == "location" and value.lower() != "relocation":
        return _TERMS["relocation"]  # wants to stay in a place: moving elsewhere contradicts it
    opposite = _OPPOSITE.get((topic, value.lower()))
    return _TERMS[opposite] if opposite else None


def _preference_findings(draft: str, records: Sequence[Record]) -> Iterator[PolicyFinding]:
    for record, a in _current(records, "preference"):
        if a.get("strength") != "strong":
            continue
        topic, value, avoid = str(a.get("topic", "")), str(a.get("value", "")), bool(a.get("avoid", False))
        terms = _preference_terms(topic, value, avoid)
        if not terms:
            continue
        contradiction = re.compile(terms, re.I)
        for text in sentences(draft):
            if contradiction.search(text) and _RECOMMEND.search(text) and not _STEER_AWAY.search(text):
                yield _finding(
                    record,
                    text,
                    "warning",
                    f"This contradicts a strong preference: {record.statement}",
                    "Respect the preference, or say explicitly why this exception is worth considering.",
                )


def career_findings(draft: str, records: Sequence[Record]) -> list[PolicyFinding]:
    """Every career rule the draft breaks given `records` (see the module docstring)."""
    return [
        *_application_findings(draft, records),
        *_skill_findings(draft, records),
        *_preference_findings(draft, records),
    ]


def career_applicability(task: str, record: Record) -> Applicability | None:
    """Whether a career record applies to `task`; None leaves the decision to the generic judge."""
    a = record.attributes
    recommending = bool(_TASK_RECOMMEND.search(task))
    profile = bool(_TASK_PROFILE.search(task))
    if record.kind == "application" and (company := str(a.get("company", ""))):
        status = a.get("status", "applied")
        if _company_pattern(company).search(task):
            return Applicability(applies=True, reason=f"the task names {company}, where the application is {status}")
        if recommending:
            return Applicability(
                applies=True, reason=f"the task is about where to apply; {company} is already {status}"
            )
        if status == "interviewing" and re.search(r"\binterview", task, re.I):
            return Applicability(applies=True, reason=f"the student is interviewing with {company}")
    elif record.kind == "skill" and (name := str(a.get("name", ""))):
        has = a.get("has", True) is not False
        if skill_pattern(name).search(task):
            return Applicability(applies=True, reason=f"the task names {name}" + ("" if has else ", which they lack"))
        if recommending or profile:
            what = f"the student knows {name}" if has else f"the student does not know {name}: never assume it"
            return Applicability(applies=True, reason=f"the task concerns roles, a resume or skills; {what}")
    elif record.kind == "project" and (profile or recommending):
        return Applicability(applies=True, reason="the task concerns a resume, interviews or fit; projects show skills")
    elif record.kind == "target_role" and (profile or recommending):
        return Applicability(applies=True, reason=f"the student's goal ({a.get('role', 'a role')}) shapes this advice")
    elif record.kind == "preference" and recommending:
        return Applicability(applies=True, reason="the task asks for recommendations; preferences constrain them")
    return None
