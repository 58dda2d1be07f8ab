"""Phrase rules: which kind a sentence states, and its attributes (the fallback without the judge).

`classify` tries the rules in a fixed order and the first that fires wins, so a sentence yields at
most one candidate: failed approach ("we tried X and it failed", "X didn't work", an outage with
its cause), decision ("we decided/agreed/chose", "let's go with X instead of Y because Z"),
preference ("I/we prefer", "I'd rather"), constraint (a header, endpoint or schema field under
must/always/every/optional/deprecated; tokens, secrets, personal data, authz under a rule word),
process (deploys, releases, pipelines, migrations under a habitual or rule word) and convention
(any other rule about code: always/never/don't/must/every, naming and file layout).
The decision/failed-approach slot rules also fill attributes for the judge's candidates.
Attributes are cut from the sentence's own words; nothing is paraphrased.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from forethought.apps.project.areas import code_identifiers, vote

__all__ = ["Match", "classify", "decision_slots", "environment", "failed_slots", "subject", "topic"]


@dataclass(frozen=True)
class Match:
    kind: str
    attributes: dict[str, Any] = field(default_factory=dict)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_END = r"(?=\s*(?:[.;:]\s|[.;:]?$|,\s+(?:so|and|which|because)\b|\s+(?:because|since|as)\b|\s+—|\s+-\s))"
# -- failed approaches -------------------------------------------------------------------------
_TRY = _rx(r"\b(?:we|I|they|the\s+team|someone)\s+(?:\w+\s+)?(?:tried|attempted|experimented\s+with)\s+(?P<rest>.+)")
_FAILED = _rx(
    r"\b(?:fail(?:ed|s|ure)?|fell\s+over|did(?:n'?t|\s+not)\s+(?:work|help|scale)|does(?:n'?t|\s+not)\s+(?:work|scale)|"
    r"never\s+worked|broke|lost|leak(?:ed|s)?|timed\s+out|too\s+(?:slow|flaky|expensive)|blew\s+up|deadlock\w*|"
    r"rolled\s+back|reverted|made\s+(?:it|things)\s+worse|was(?:n'?t|\s+not)\s+enough|dead\s+end)\b"
)
_DIDNT_WORK = _rx(
    r"^(?P<approach>.{6,120}?)\s+(?:did(?:n'?t|\s+not)\s+(?:work|help|scale)|does(?:n'?t|\s+not)\s+(?:work|scale)|"
    r"never\s+worked|(?:was|turned\s+out\s+to\s+be)\s+a\s+dead\s+end)\b(?:\s+(?:reliably|for\s+us|out|well))*(?P<rest>.*)"
)
_TRY_CONNECTOR = _rx(r"\s*(?:,\s*|\s+)(?:but|and|only\s+to)\b|[,;:]\s|\s+—")
_WHY = _rx(r"(?:\bbecause(?:\s+of)?\b|\bsince\b|\bdue\s+to\b|[:;]\s|,\s+it\b|—)\s*(?P<why>.+)$")
_VAGUE_SUBJECT = _rx(r"^(?:it|that|this|the\s+build|the\s+tests?|tests|ci|nothing|everything)$|\bmy\b")


def _failed_approach(s: str) -> Match | None:
    approach: str | None = None
    tail = ""
    tried = _TRY.search(s)
    if tried and _FAILED.search(tried.group("rest")):
        rest = tried.group("rest")
        cut = _TRY_CONNECTOR.search(rest)
        approach, tail = (rest[: cut.start()], rest[cut.end() :]) if cut else (rest, rest)
    else:
        m = _DIDNT_WORK.search(s)
        if m and not _VAGUE_SUBJECT.search(m.group("approach").strip()):
            approach, tail = m.group("approach"), m.group("rest")
    if not approach:
        return None
    why = _WHY.search(tail)
    reason = (why.group("why") if why else tail).strip(" ,.;:—") or None
    return Match("failed_approach", {"approach": approach.strip(" ,.;:—"), "why_failed": reason})


# -- incidents ---------------------------------------------------------------------------------
_INCIDENT = _rx(
    r"\b(?:outages?|incidents?|post-?mortems?|downtime|sev-?[0-4]|data\s+loss|breach|root\s+cause|"
    r"(?:load|deploy|build|export|import|job|migration|checkout|payment)\s+failure|went\s+down|double-?charge\w*)\b"
)
_CAUSE = _rx(r"\b(?:caused\s+by|because|root\s+cause|due\s+to|was\s+(?:a|an|the)|were)\b")
_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)(?:\s+\d{1,2})?(?:,?\s+\d{4})?\b|\b(?:last|this)\s+(?:Monday|Tuesday|Wednesday|Thursday|Friday|"
    r"Saturday|Sunday|week|month|year|spring|summer|autumn|fall|winter|quarter)\b|\b(?:Black\s+Friday|Cyber\s+Monday|"
    r"yesterday)\b|\b(?:Q[1-4]\s+\d{4})\b",
    re.I,
)
_IMPACT = _rx(
    r"\b(?:took\s+down|knocked\s+out|affect\w*|impact\w*|lost|charged|timed\s+out|filled|wrote\s+nulls|"
    r"created\s+(?:a\s+)?(?:second|duplicate)|for\s+(?:about\s+|around\s+)?(?:\d+|an?|one|two|three|four|five|six|"
    r"several)\s+(?:hours?|minutes?|days?))[^.;]*"
)


def _incident(s: str) -> Match | None:
    if not _INCIDENT.search(s) or not _CAUSE.search(s):
        return None
    date = _DATE.search(s)
    impact = _IMPACT.search(s)
    return Match(
        "failed_approach",
        {
            "approach": s.rstrip(" ."),
            "why_failed": impact.group(0).strip(" ,.") if impact else None,
            "date": date.group(0) if date else None,
        },
    )


# -- decisions ---------------------------------------------------------------------------------
_DECIDE = _rx(
    r"(?:\b(?:we|I|the\s+team)(?:'ve|\s+have)?\s+(?:\w+\s+)?(?:decided|agreed|chose|settled\s+on|opted\s+for)"
    r"|\blet'?s\s+go\s+with|\bwe(?:'re|\s+are)\s+going\s+with|^decision:"
    r"|\bwe(?:'re|\s+are)\s+(?:moving|switching|migrating)\s+to)\s*(?:to|that|on|for)?\s+(?P<what>.+)"
)
_ALTERNATIVE = _rx(r"\b(?:instead\s+of|rather\s+than|over)\s+(?P<alt>.+?)" + _END)
_DECISION_WHY = _rx(r"(?:\bbecause(?:\s+of)?\b|\bsince\b|\bso\s+that\b|,\s+so\b)\s*(?P<why>.+?)\.?$")


def _decision(s: str) -> Match | None:
    m = _DECIDE.search(s)
    if m is None:
        return None
    what = m.group("what")
    alt = _ALTERNATIVE.search(what)
    why = _DECISION_WHY.search(what)
    cut = min(x.start() for x in (alt, why) if x is not None) if (alt or why) else len(what)
    return Match(
        "decision",
        {
            "what": what[:cut].strip(" ,.;:—") or what.strip(" ,.;:—"),
            "why": why.group("why").strip(" ,.") if why else None,
            "alternatives_rejected": [alt.group("alt").strip(" ,.")] if alt else [],
        },
    )


# -- preferences -------------------------------------------------------------------------------
_PREFER = _rx(
    r"^(?:personally,?\s+)?(?P<who>I|we|the\s+team|our\s+team)(?:\s+\w+)??(?:\s+(?:prefer|like|would\s+rather)|"
    r"'d\s+(?:rather|like))\b(?!\s+(?:you|it|that|this)\b)|^(?:please\s+)?prefer\b|\bmy\s+preference\b"
)


def _preference(s: str) -> Match | None:
    m = _PREFER.search(s)
    if m is None:
        return None
    person = (m.group("who") or "").lower() == "i" or "my preference" in s.lower()
    return Match("preference", {"what": s.rstrip(" ."), "holder": "person" if person else "team"})


# -- rules: API contracts, security, deployment, conventions -----------------------------------
_RULE_WORD = _rx(
    r"\b(?:must|always|never|don'?t|do\s+not|should|shouldn'?t|every|all|any|only|no|required?|need(?:s)?\s+to|"
    r"has\s+to|have\s+to|no\s+exceptions)\b"
)
_IMPERATIVE = _rx(
    r"^(?:use|validate|verify|sanitize|escape|hash|encrypt|wrap|call|put|keep|avoid|never|always|don'?t|do\s+not)\b"
)
_API_SUBJECT = re.compile(
    r"(?<![\w-])(?:X-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+|Authorization|Idempotency-Key|(?:GET|POST|PUT|PATCH|DELETE)s?)(?![\w-])"
    r"|/api/\S+"
    r"|(?i:\b(?:(?:API|JSON)\s+(?:routes?|responses?|fields?|payloads?)|responses?|envelopes?|status\s+codes?|"
    r"payloads?|(?:\w+\s+)?fields?|CRs|CRDs?|annotations?|schemas?)\b)"
)
_API_RULE = _rx(r"\b(?:must|always|never|every|all|required|returns?|optional|deprecated|immutable|only)\b")
_DECLARED = re.compile(r"^`?[A-Za-z_][\w.]*`?\s+(?:is|are)\s+(?:optional|required|deprecated|immutable)\b")
_SECURITY = _rx(
    r"(?<![\w-])(?:tokens?|secrets?|passwords?|credentials?|api[ _-]?keys?|csrf|xss|sql\s+injection|encrypt\w*|hash\w*|"
    r"bcrypt|cookies?|pii|personal\s+data|e-?mails?|signatures?|rate[ -]?limit\w*|ratelimit|brute[ -]force|"
    r"permissions?|authz|authori[sz]\w*|requireRole|sanitiz\w*|tls|https|cors|keychain|localStorage|"
    r"sessionStorage|AsyncStorage)(?![\w-])"
)
_DEPLOY = _rx(
    r"\b(?:deploy(?:s|ments?)?|releases?|rollouts?|promot\w+\s+to|ship(?:s|ping)?\s+to|production|prod|staging|"
    r"pipelines?|migrations?|migrate|hotfix(?:es)?|rollbacks?|canary|testflight|app\s+store|release\s+job)\b"
)
_HABIT = _rx(
    r"\b(?:go(?:es)?\s+out|go(?:es)?\s+to|always|never|only|must|every|each|first|via|through|needs?|requires?|"
    r"runs?|from\s+now\s+on|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b"
)
_PERSONAL_ACTION = _rx(r"^(?:I|we)\s+(?:just\s+)?(?:deployed|shipped|released|ran|pushed)\b")
_ENVIRONMENT = _rx(r"\b(?:production|prod|staging|preview|dev|qa|testflight|app\s+store)\b")
_CONVENTION = _rx(
    r"^(?:always|never|don'?t|do\s+not|avoid)\b|\b(?:must|should|every|all|no\s+exceptions|we\s+use|"
    r"standardi[sz]\w*\s+on|(?:is|are)\s+(?:named|prefixed|suffixed)|prefixed|lives?\s+(?:in|under)|"
    r"go(?:es)?\s+(?:in|under)|belongs?\s+in|naming|snake_case|camelCase|kebab-case|PascalCase|never)\b"
)
_TOPIC = [
    ("naming", _rx(r"\b(?:name[ds]?|naming|prefix\w*|suffix\w*|snake_case|camelCase|kebab-case|PascalCase)\b")),
    ("layout", _rx(r"\b(?:lives?\s+(?:in|under)|go(?:es)?\s+(?:in|under)|belongs?\s+in|folder|director(?:y|ies))\b")),
    ("imports", _rx(r"\bimports?\b")),
    ("library", _rx(r"\b(?:use|using|library|package|dependency)\b")),
    ("testing", _rx(r"\b(?:tests?|mocks?|fixtures?|asserts?)\b")),
    ("style", _rx(r"\b(?:format\w*|indent\w*|tabs|spaces|lint\w*|comments?|docstrings?)\b")),
]


def _subject(s: str) -> str | None:
    declared = _DECLARED.search(s)
    subject = _API_SUBJECT.search(s)
    ids = code_identifiers(s)
    return (ids[0] if declared and ids else None) or (subject.group(0) if subject else None)


def _api_contract(s: str) -> Match | None:
    if not _DECLARED.search(s) and (_IMPERATIVE.search(s) or not (_API_SUBJECT.search(s) and _API_RULE.search(s))):
        return None
    return Match("constraint", {"rule": s.rstrip(" ."), "subject": _subject(s)})


def _security(s: str) -> Match | None:
    if not (_SECURITY.search(s) and (_RULE_WORD.search(s) or _IMPERATIVE.search(s))):
        return None
    return Match("constraint", {"rule": s.rstrip(" .")})


def _deployment(s: str) -> Match | None:
    if not (_DEPLOY.search(s) and _HABIT.search(s)) or _PERSONAL_ACTION.search(s):
        return None
    return Match("process", {"rule": s.rstrip(" ."), "environment": environment(s)})


def _convention(s: str) -> Match | None:
    if not _CONVENTION.search(s):
        return None
    technical = bool(vote(s).scores) or bool(code_identifiers(s))
    if not technical and not _IMPERATIVE.search(s):
        return None
    return Match("convention", {"rule": s.rstrip(" ."), "topic": topic(s)})


_RULES = (_failed_approach, _incident, _decision, _preference, _api_contract, _security, _deployment, _convention)


def environment(body: str) -> str | None:
    """The environment a rule names (production, staging, ...), lower-cased."""
    env = _ENVIRONMENT.search(body)
    return env.group(0).lower() if env else None


def topic(body: str) -> str:
    """What a convention is about: naming, layout, imports, library, testing, style or practice."""
    return next((name for name, rx in _TOPIC if rx.search(body)), "practice")


def subject(body: str) -> str | None:
    """The header, endpoint, field or declared name a constraint is about, if it names one."""
    return _subject(body)


def decision_slots(body: str) -> dict[str, Any] | None:
    """What, why and the rejected alternative of a decision sentence, when its wording shows them."""
    found = _decision(body)
    return dict(found.attributes) if found is not None else None


def failed_slots(body: str) -> dict[str, Any] | None:
    """The approach and why it failed, when the sentence's wording shows them."""
    found = _failed_approach(body) or _incident(body)
    return dict(found.attributes) if found is not None else None


def classify(body: str) -> Match | None:
    """The first rule that fires on a sentence (without its leading discourse markers), or None."""
    for rule in _RULES:
        found = rule(body)
        if found is not None:
            return found
    return None
