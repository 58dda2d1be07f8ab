"""Target roles and preferences: "I want to become a data engineer", "I'd rather work remotely".

A target role is the words after "become / be / work as", or before "roles / internships / jobs"
after "I'm looking for / aiming for / interested in", ending in a job-title word (engineer, analyst,
intern...) or a field (data engineering). "I don't want to be a manager" is not a target but a
preference to avoid that role.

A preference is a clause naming a topic term (remote, on-site, startups, big companies, an industry,
a place, relocating) together with a cue of liking or disliking it. Dislike cues ("not a fan of",
"don't want", "dealbreaker") set avoid; "only", "must", "never", "absolutely", "dealbreaker" make
it strong. An industry already given as a target role's industry is not repeated as a preference.
"""

from __future__ import annotations

import re
from typing import cast

from forethought.apps.career.kinds import Preference, PreferenceTopic, TargetRole
from forethought.apps.career.lexicon import INDUSTRIES, ROLE_FIELDS, ROLE_HEADS
from forethought.apps.career.text import Found, blocked, is_question_clause
from forethought.text.slugs import tag_value
from forethought.text.words import vocabulary

__all__ = ["find_goal_facts"]

_SPECIALTIES = vocabulary(
    """backend back-end frontend front-end full-stack fullstack mobile embedded devops data ml ai security cloud
    infrastructure product research quant ux ui web software hardware game qa"""
)
_ROLE = r"(?P<role>[a-z][\w+#/-]*(?:\s+[\w+#/-]+){0,4}?)"
_ROLE_STOP = (
    r"(?=\s+(?:at|in|for|with|someday|one\s+day|eventually|after|when|because|since|so|and|but|or|who|that|where|"
    r"like|by|within|instead|rather)\b|[,.;!?]|$)"
)
_BECOME = r"(?:become|be|work\s+as|get\s+into\s+being|end\s+up\s+as)\s+(?:an?\s+|the\s+)?"
_MOVE_INTO = r"(?:move|get|break|transition|switch|pivot)\s+(?:into|to)\s+(?:an?\s+)?"
_I_WANT = (
    r"i(?:\s+(?:really\s+|eventually\s+|ultimately\s+|definitely\s+)?(?:want|would\s+like|would\s+love|hope|plan|aim|"
    r"intend)|'d\s+(?:really\s+)?(?:like|love))\s+to\s+"
)
_TARGET = re.compile(
    rf"\b(?:{_I_WANT}(?:{_BECOME}|{_MOVE_INTO})|my\s+(?:\w+\s+)?(?:goal|dream|plan|aim|ambition)\s+is\s+to\s+"
    rf"(?:{_BECOME}|{_MOVE_INTO})|my\s+dream\s+(?:job|role)\s+is\s+(?:to\s+be\s+)?(?:an?\s+)?){_ROLE}{_ROLE_STOP}",
    re.I,
)
_TARGET_NOUN = re.compile(
    r"\b(?:i(?:'m|\s+am)\s+(?:currently\s+|mostly\s+|mainly\s+|now\s+|really\s+)?(?:looking\s+for|aiming\s+for|"
    r"targeting|interested\s+in|going\s+for|hoping\s+(?:to\s+land|for)|trying\s+to\s+(?:get|land)|applying\s+"
    r"(?:for|to)|searching\s+for|focusing\s+on|focused\s+on|after)|i(?:\s+(?:really\s+)?(?:want|need|would\s+like)|"
    rf"'d\s+like))\s+(?:an?\s+|the\s+|some\s+)?{_ROLE}\s+(?:roles?|positions?|jobs?|internships?|opportunities|"
    r"openings?)\b",
    re.I,
)
_NOT_TARGET = re.compile(
    rf"\bi\s+(?:really\s+|definitely\s+)?(?:don't|do\s+not|never)\s+want\s+to\s+{_BECOME}{_ROLE}{_ROLE_STOP}", re.I
)
# Words before a role that describe the job, not the role ("remote backend roles", "summer internships").
_MODIFIERS = re.compile(
    r"^(?:(?:remote|hybrid|on-?site|in-person|paid|unpaid|summer|fall|spring|winter|full-time|part-time|"
    r"entry-level|local|good|new|more|some|any)\s+)+",
    re.I,
)
_INDUSTRY = "|".join(re.escape(k) for k in sorted(INDUSTRIES, key=len, reverse=True))
_INDUSTRY_AFTER = re.compile(rf"\b(?:in|at|for)\s+(?:an?\s+|the\s+)?(?P<industry>{_INDUSTRY})\b", re.I)
_LOCATION_AFTER = re.compile(r"\b(?:in|near|around)\s+(?P<place>(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?))", re.I)

# topic, value, pattern; a place's value is taken from the `place` group
_TERMS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (topic, value, re.compile(pattern, re.I))
    for topic, value, pattern in (
        ("work_mode", "remote", r"\bremote(?:ly)?\b|\bwork(?:ing)?\s+from\s+home\b|\bwfh\b|\bfully\s+distributed\b"),
        ("work_mode", "onsite", r"\bon-?site\b|\bin[- ]person\b|\bin\s+the\s+office\b|\bin-office\b|\boffice-based\b"),
        ("work_mode", "hybrid", r"\bhybrid\b"),
        (
            "company_size",
            "large",
            r"\b(?:big|large|huge)\s+(?:tech\s+)?(?:compan(?:y|ies)|corporations?|firms?|corps?|"
            r"enterprises?)\b|\bcorporates?\b|\bcorporations\b|\bfaang\b|\bmaang\b|\bbig\s+tech\b",
        ),
        (
            "company_size",
            "small",
            r"\bstart-?ups?\b|\bsmall\s+(?:compan(?:y|ies)|teams?|firms?|shops?)\b|\bearly[- ]stage\b",
        ),
        ("company_size", "medium", r"\bmid-?size(?:d)?\b|\bmedium[- ]sized?\b|\bscale-?ups?\b"),
        (
            "location",
            "relocation",
            r"\brelocat\w*|\bmove\s+(?:away|cities|abroad|countries|to\s+another\s+(?:city|country))",
        ),
        (
            "location",
            "place",
            r"\b(?:stay|live|work|be\s+based|remain|located|be|ideally|preferably|somewhere|anywhere)\s+(?:in|near|"
            r"around)\s+"
            r"(?P<place>(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?))",
        ),
        ("industry", "industry", rf"\b(?P<industry>{_INDUSTRY})\b"),
    )
)
_DISLIKE = re.compile(
    r"\b(?:not\s+a\s+(?:big\s+|huge\s+)?fan|(?:don't|do\s+not)\s+(?:really\s+)?(?:like|want|enjoy|love|suggest|recommend|"
    r"show|send|offer)|"
    r"dislike|hate|can't\s+stand|avoid|rather\s+not|not\s+interested|no\s+interest|steer\s+clear|never|won't|will\s+not|"
    r"refuse|deal\s*-?\s*breaker|non-starter|not\s+for\s+me|aren't\s+for\s+me|isn't\s+for\s+me|no\s+way|not\s+into|"
    r"tired\s+of|not\s+keen)\b",
    re.I,
)
_LIKE = re.compile(
    r"\b(?:prefer\w*|rather|want|would\s+like|'d\s+like|like|love|enjoy|looking\s+for|ideally|interested\s+in|need|"
    r"only|must|great|ideal|fine|open\s+to|sounds?\s+(?:great|good|fun|exciting|nice|perfect)|excited\s+about|keen\s+on|"
    r"drawn\s+to|appeals?|non-negotiable|important|perfect|please)\b",
    re.I,
)
_STRONG = re.compile(
    r"\b(?:only|must|need|have\s+to|absolutely|definitely|really|hate|can't\s+stand|never|won't|refuse|"
    r"deal\s*-?\s*breaker|non-negotiable|no\s+way|at\s+all|strictly|under\s+no\s+circumstances)\b",
    re.I,
)
_CLAUSE = re.compile(r"[,;]|\s+(?:but|though|although|whereas)\s+|\s+-\s+|—", re.I)
_LABELS = {
    "remote": "remote work",
    "onsite": "on-site work",
    "hybrid": "hybrid work",
    "large": "large companies",
    "small": "startups and small companies",
    "medium": "mid-size companies",
    "relocation": "relocating",
}


def _role_ok(role: str) -> bool:
    last = role.lower().split()[-1].rstrip("s") if role.split() else ""
    return last in ROLE_HEADS or role.lower().split()[-1] in ROLE_FIELDS or last in _SPECIALTIES


def _target(match: re.Match[str], sentence: str) -> Found | None:
    role = _MODIFIERS.sub("", " ".join(match.group("role").lower().split()))
    if not role or not _role_ok(role):
        return None
    tail = sentence[match.end("role") :]
    industry = INDUSTRIES[i.group("industry").lower()] if (i := _INDUSTRY_AFTER.search(tail)) else None
    location = p.group("place") if (p := _LOCATION_AFTER.search(tail)) else None
    where = "".join(f" {w}" for w in (f"in {industry}" if industry else "", f"in {location}" if location else "") if w)
    return Found(
        kind="target_role",
        attributes=TargetRole(role=role, industry=industry, location=location),
        statement=f"The student wants to become a {role}{where}."
        if role.split()[-1].rstrip("s") in ROLE_HEADS
        else f"The student wants a {role} role{where}.",
        confidence=0.75,
        tags=(f"role:{tag_value(role)}",),
    )


def _preference(topic: str, value: str, avoid: bool, strong: bool) -> Found:
    label = _LABELS.get(value) or (
        f"working in {value}" if topic == "location" else f"the {value} industry" if topic == "industry" else value
    )
    verb = "wants to avoid" if avoid else "prefers"
    return Found(
        kind="preference",
        attributes=Preference(
            topic=cast(PreferenceTopic, topic), value=value, avoid=avoid, strength="strong" if strong else "mild"
        ),
        statement=f"The student {'strongly ' if strong else ''}{verb} {label}.",
        confidence=0.7,
        tags=(f"preference:{topic}",),
    )


def _preferences(sentence: str, claimed: set[str]) -> list[Found]:
    found: list[Found] = []
    starts = [0, *(m.end() for m in _CLAUSE.finditer(sentence))]
    ends = [*(m.start() for m in _CLAUSE.finditer(sentence)), len(sentence)]
    for start, end in zip(starts, ends, strict=True):
        clause = sentence[start:end]
        if is_question_clause(sentence, start + len(clause) // 2):
            continue
        avoid = bool(_DISLIKE.search(clause))
        if not avoid and not _LIKE.search(clause):
            continue
        strong = bool(_STRONG.search(clause))
        for topic, value, pattern in _TERMS:
            for term in pattern.finditer(clause):
                named = term.groupdict().get("place") or term.groupdict().get("industry")
                resolved = (INDUSTRIES[named.lower()] if topic == "industry" and named else named) or value
                if resolved.lower() in claimed:
                    continue
                claimed.add(resolved.lower())
                found.append(_preference(topic, resolved, avoid, strong))
    return found


def find_goal_facts(sentence: str) -> list[Found]:
    """Target roles and preferences stated in one sentence of the student's."""
    found: list[Found] = []
    claimed: set[str] = set()
    for pattern in (_TARGET, _TARGET_NOUN):
        for match in pattern.finditer(sentence):
            if blocked(sentence, match.start()):
                continue
            if (fact := _target(match, sentence)) is not None and all(f.statement != fact.statement for f in found):
                found.append(fact)
                attributes = fact.attributes
                claimed.update(v.lower() for v in (getattr(attributes, "industry", None),) if v)
    for match in _NOT_TARGET.finditer(sentence):
        role = " ".join(match.group("role").lower().split())
        if _role_ok(role) and not is_question_clause(sentence, match.start()):
            found.append(_preference("role", role, avoid=True, strong=True))
    return found + _preferences(sentence, claimed)
