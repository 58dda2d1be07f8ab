"""Application rules: applied, interviewing, rejected, offered, accepted, withdrawn.

A company is a run of capitalised words ("Stripe", "Jane Street", "Bank of America") after the
words that introduce it; lower-case names are missed on purpose (too many false companies). "They"/"them"
(and "it", for an offer) resolve to the company last named in the session ("Just heard back from
Stripe. They offered me the internship!"). A role comes from "for the ___ role", "as a ___", "the ___ internship
at X", else from an earlier mention of the same company in the session, else it is `unspecified`.
Plans, wishes, conditions and questions ("I might apply to X", "if I get an offer from X") and
negated statements ("I haven't applied to X") record nothing; only rules whose wording carries the
negation ("I didn't get the X internship" → rejected) accept one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import cast

from forethought.apps.career.kinds import UNSPECIFIED_ROLE, Application, ApplicationStatus
from forethought.apps.career.text import Found, blocked
from forethought.text.slugs import tag_value
from forethought.text.words import vocabulary

__all__ = ["ApplicationMemory", "find_application_facts"]

_TOKEN = r"(?-i:[A-Z][\w&'’.-]*[\w&]|[A-Z])"  # capitalised even inside case-insensitive rules
_COMPANY = rf"(?P<company>{_TOKEN}(?:\s+(?:&\s+|of\s+)?{_TOKEN}){{0,3}})"
_PRONOUN = r"(?P<pronoun>\bthey|\bthem)\b"
_EITHER = rf"(?:{_PRONOUN}|{_COMPANY})"
_NOUN = r"(?P<noun>internship|intern|role|position|job|opening|program|programme|offer)"
_ROLE = r"(?P<role>(?:[\w+#/-]+\s+){0,4}?)"
_LEADING = vocabulary(
    """also so honestly update quick just well oh and but then yeah yes no ok okay btw anyway sadly unfortunately
    finally today yesterday apparently big news great guess ugh wow hey hi hello remember heard got applied the
    plus sent good bad"""
)
_TRAILING = vocabulary(
    """i today yesterday tomorrow last next this monday tuesday wednesday thursday friday saturday sunday"""
)
_NOT_COMPANIES = vocabulary(
    """i it they them we you he she my me our your a an the this that these those there here what which who python
    java javascript typescript c c++ c# go rust sql kotlin swift ruby php scala haskell html css linkedin"""
)


@dataclass
class ApplicationMemory:
    """What earlier sentences of the session said: for pronouns and role-less mentions."""

    last_company: str | None = None
    last_offer: str | None = None
    roles: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Rule:
    status: ApplicationStatus
    pattern: re.Pattern[str]
    negated_ok: bool = False


def _r(status: str, pattern: str, negated_ok: bool = False) -> _Rule:
    return _Rule(cast(ApplicationStatus, status), re.compile(pattern, re.I), negated_ok)


_REJECTION_VERBS = (
    r"(?:rejected\s+me|rejected\s+my\s+application|turned\s+me\s+down|turned\s+down\s+my\s+application|passed\s+on\s+"
    r"me|declined\s+me|declined\s+my\s+application|dinged\s+me|said\s+no|went\s+with\s+(?:another|someone\s+else|"
    r"other)|(?:is|are)\s+not\s+moving\s+forward|(?:isn't|aren't)\s+moving\s+forward|decided\s+not\s+to\s+move\s+"
    r"forward)"
)
_STAGE = (
    r"(?:interview|phone\s+screen|screening|onsite|on-site|final\s+round|coding\s+challenge|assessment|take-home|"
    r"super\s?day|hirevue|video\s+interview)"
)
_RULES: tuple[_Rule, ...] = (
    _r(
        "rejected",
        rf"(?:^\W*|\b(?:got|get|getting|was|been|were|am|'m)\s+(?:\w+\s+)?)rejected\s+(?:by|from|at)\s+(?:the\s+)?"
        rf"{_EITHER}(?:\s+{_ROLE}{_NOUN})?",
    ),
    _r("rejected", rf"{_EITHER}\s+(?:just\s+|also\s+|finally\s+|officially\s+)?{_REJECTION_VERBS}"),
    _r("rejected", rf"{_EITHER}\s+(?:\w+\s+)?(?:sent|gave|emailed)\s+me\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?rejection"),
    _r("rejected", rf"\brejection\s+(?:email\s+|letter\s+|e-mail\s+|notice\s+)?from\s+{_COMPANY}"),
    _r("rejected", rf"\b(?:didn't|did\s+not)\s+get\s+(?:the|an?|my)\s+{_COMPANY}\s+{_ROLE}{_NOUN}", negated_ok=True),
    _r("rejected", rf"\b(?:didn't|did\s+not)\s+get\s+(?:the|an?)\s+{_ROLE}{_NOUN}\s+(?:at|with)\s+{_COMPANY}", True),
    _r("rejected", rf"\b(?:didn't|did\s+not)\s+(?:get\s+in(?:to)?|make\s+it)\s+(?:at|with|to|into)\s+{_COMPANY}", True),
    _r(
        "rejected",
        rf"\bheard\s+back\s+from\s+{_EITHER}\W+(?:\w+\s+){{0,4}}?(?:rejected|rejection|a\s+no\b|not\s+moving)",
    ),
    _r("rejected", rf"\bno\s+offer\s+from\s+{_COMPANY}"),
    _r(
        "rejected",
        rf"{_COMPANY}\s+(?:said|told\s+me|emailed(?:\s+me)?|wrote)\s+(?:that\s+)?(?:they(?:'re|\s+are|\s+were)|it's)\s+"
        r"(?:not\s+moving\s+forward|going\s+(?:with|in)\s+(?:another|a\s+different|other)|passing)",
    ),
    _r(
        "interviewing",
        rf"\b(?:have|had|got|'ve\s+got|scheduled|landed|booked|there's|there\s+is)\s+(?:an?\s+|my\s+|"
        rf"the\s+|another\s+)?(?:[\w-]+\s+){{0,2}}?{_STAGE}\s+(?:\w+\s+){{0,2}}?(?:with|at|for)\s+{_EITHER}",
    ),
    _r("interviewing", rf"\b(?:i'm|i\s+am|currently)\s+interviewing\s+(?:with|at|for)\s+{_EITHER}"),
    _r(
        "interviewing",
        rf"{_EITHER}\s+(?:just\s+|also\s+)?(?:invited|asked|wants|selected|shortlisted)\s+me\s+(?:to|"
        rf"for)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){{0,2}}?(?:{_STAGE}|next\s+round)",
    ),
    _r("interviewing", rf"\bmy\s+{_COMPANY}\s+(?:[\w-]+\s+)?{_STAGE}"),
    _r(
        "interviewing",
        rf"{_EITHER}\s+(?:just\s+)?(?:moved|advanced|progressed|passed)\s+me\s+(?:on\s+)?(?:to|through)\s+(?:the\s+)?"
        r"(?:[\w-]+\s+){0,2}?(?:round|stage|onsite|on-site|interview)",
    ),
    _r(
        "interviewing",
        rf"\b(?:passed|cleared|made\s+it\s+(?:to|past|through)|advanced\s+to|moved\s+(?:on\s+)?to|got\s+"
        rf"to)\s+(?:the\s+)?(?:[\w-]+\s+){{0,2}}?(?:round|stage)\s+(?:at|with|of|for)\s+{_EITHER}",
    ),
    _r(
        "offered",
        rf"\b(?:got|received|have|landed|'ve\s+got)\s+(?:an?\s+|the\s+|my\s+)?(?:[\w-]+\s+){{0,2}}?offer\s+"
        rf"(?:from|at|with)\s+{_EITHER}",
    ),
    _r(
        "offered",
        rf"{_EITHER}\s+(?:just\s+|finally\s+|actually\s+)?(?:offered\s+me|(?:made|gave|extended)\s+(?:me\s+)?"
        rf"an?\s+(?:[\w-]+\s+)?offer)",
    ),
    _r("offered", rf"\b(?:got|landed)\s+the\s+{_COMPANY}\s+{_ROLE}(?P<noun>internship|job|role|position|offer)"),
    _r("offered", rf"(?:^\W*|\b(?:an?|the|my)\s+)offer\s+from\s+{_COMPANY}\s+(?:came|arrived|landed|is\s+in|just)"),
    _r(
        "offered",
        rf"\bgot\s+(?:into|accepted\s+(?:in)?to)\s+{_COMPANY}(?:'s|’s)?\s+(?:[\w-]+\s+){{0,3}}?"
        r"(?:program(?:me)?|internship|scheme|fellowship)",
    ),
    _r(
        "accepted",
        rf"\b(?:accepted|took|signed)\s+(?:the\s+|an?\s+|their\s+|my\s+)?(?:[\w-]+\s+){{0,2}}?offer\s+"
        rf"(?:from|at|with)\s+{_EITHER}",
    ),
    _r("accepted", rf"\baccepted\s+{_COMPANY}(?:'s|’s)\s+(?:[\w-]+\s+)?offer"),
    _r("accepted", rf"\b(?:i'm|i\s+am|i'll\s+be|i\s+will\s+be)\s+(?:officially\s+)?joining\s+{_COMPANY}"),
    _r("accepted", rf"\bsigned\s+with\s+{_COMPANY}"),
    _r("accepted", r"\baccepted\s+(?P<offer>it|the\s+offer|their\s+offer|the\s+internship|the\s+job)\b"),
    _r(
        "withdrawn",
        rf"\bwithdr(?:ew|awn|aw)\s+(?:my\s+|the\s+)?(?:application|candidacy)?\s*(?:from|to|at|with|for)"
        rf"\s+(?:the\s+)?{_COMPANY}",
    ),
    _r("withdrawn", rf"\bpulled\s+(?:out\s+of|out\s+from|my\s+application\s+(?:from|to|at))\s+(?:the\s+)?{_COMPANY}"),
    _r(
        "withdrawn",
        rf"\b(?:declined|turned\s+down)\s+(?:the\s+|an?\s+|their\s+)?(?:[\w-]+\s+){{0,2}}?offer\s+(?:from|"
        rf"at|with)\s+{_COMPANY}",
    ),
    _r("withdrawn", rf"\b(?:declined|turned\s+down)\s+{_COMPANY}(?:'s|’s)\s+(?:[\w-]+\s+)?offer"),
)
_APPLIED = re.compile(
    r"\b(?:applied|sent\s+(?:in\s+)?(?:an?|my)\s+application|submitted\s+(?:an?|my)\s+application|put\s+in\s+"
    r"(?:an?|my)\s+application)\b",
    re.I,
)
_PAIR = re.compile(rf"\b(?:the|a|an|their)\s+{_ROLE}{_NOUN}\s+(?:at|with)\s+{_COMPANY}", re.I)
_BARE = re.compile(rf"\b(?:to|at|with)\s+{_COMPANY}", re.I)
_MORE = re.compile(rf"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+&\s+){_COMPANY}", re.I)
_ROLE_FOR = re.compile(rf"\b(?:for|to)\s+(?:the|a|an|their|its|one\s+of\s+their)\s+{_ROLE}{_NOUN}\b", re.I)
_ROLE_AS = re.compile(
    r"\bas\s+an?\s+(?P<role>(?:[\w+#/-]+\s+){0,3}?[\w+#/-]+?)(?=\s+(?:at|with|in|for|on)\b|[,.;!?]|$)", re.I
)
_APPLIED_END = re.compile(r"[;]|\s+but\s+|\.(?=\s|$)", re.I)


def _company(raw: str | None) -> str | None:
    if not raw:
        return None
    words = re.split(r"(?:'s|’s)\b", raw.strip())[0].split()
    while words and words[0].lower() in _LEADING:
        words.pop(0)
    while words and (words[-1].lower() in _TRAILING or words[-1].lower() in ("of", "&")):
        words.pop()
    name = " ".join(words).strip(".,'’")
    if not name or name.lower() in _NOT_COMPANIES or not name[0].isupper():
        return None
    return name


def _role(words: str | None, noun: str | None = None) -> str | None:
    """'backend intern' from ('backend intern ', 'role'); 'swe intern' from ('SWE ', 'internship')."""
    text = " ".join((words or "").lower().split())
    text = re.sub(r"^(?:summer|new|open|available)\s+", "", text)
    if noun and noun.lower() in ("internship", "intern") and not text.endswith("intern"):
        text = f"{text} intern".strip()
    if not text or len(text.split()) > 5 or text in ("offer", "program"):
        return None
    return text


def _role_in(text: str) -> str | None:
    if hit := _ROLE_FOR.search(text):
        return _role(hit.group("role"), hit.group("noun"))
    if hit := _ROLE_AS.search(text):
        return _role(hit.group("role"))
    return None


def _fact(company: str, role: str | None, status: ApplicationStatus, memory: ApplicationMemory) -> Found:
    key = company.casefold()
    role = role or memory.roles.get(key) or UNSPECIFIED_ROLE
    if role != UNSPECIFIED_ROLE:
        memory.roles.setdefault(key, role)
    memory.last_company = company
    if status == "offered":
        memory.last_offer = company
    what = "" if role == UNSPECIFIED_ROLE else f" ({role})"
    statement = {
        "applied": f"The student applied to {company}{what}.",
        "interviewing": f"The student is interviewing with {company}{what}.",
        "rejected": f"{company} rejected the student's application{what}.",
        "offered": f"{company} offered the student a position{what}.",
        "accepted": f"The student accepted {company}'s offer{what}.",
        "withdrawn": f"The student withdrew from {company}'s process{what}.",
    }[status]
    return Found(
        kind="application",
        attributes=Application(company=company, role=role, status=status),
        statement=statement,
        confidence=0.75,
        tags=(f"company:{tag_value(company)}", f"status:{status}"),
    )


def _applied(sentence: str, memory: ApplicationMemory) -> list[Found]:
    found: list[Found] = []
    for verb in _APPLIED.finditer(sentence):
        if blocked(sentence, verb.start()):
            continue
        end = _APPLIED_END.search(sentence, verb.end())
        rest = sentence[verb.end() : end.start() if end else len(sentence)]
        pairs = [(_company(p.group("company")), _role(p.group("role"), p.group("noun"))) for p in _PAIR.finditer(rest)]
        companies: list[str | None] = []
        if not pairs and (bare := _BARE.search(rest)):
            companies.append(_company(bare.group("company")))
            position = bare.end()
            while more := _MORE.match(rest, position):
                companies.append(_company(more.group("company")))
                position = more.end()
        role = _role_in(rest) if len(companies) == 1 else None
        pairs.extend((company, role) for company in companies)
        found.extend(_fact(c, r, "applied", memory) for c, r in pairs if c)
    return found


def find_application_facts(sentence: str, memory: ApplicationMemory) -> list[Found]:
    """Application facts stated in one sentence of the student's; updates `memory`."""
    found = _applied(sentence, memory)
    for rule in _RULES:
        for hit in rule.pattern.finditer(sentence):
            if blocked(sentence, hit.start(), negated_ok=rule.negated_ok):
                continue
            groups = hit.groupdict()
            if groups.get("offer"):
                company = memory.last_offer
            elif groups.get("pronoun"):
                company = memory.last_company
            else:
                company = _company(groups.get("company"))
            if company is None:
                continue
            role = _role(groups.get("role"), groups.get("noun")) if groups.get("noun") else _role_in(sentence)
            found.append(_fact(company, role, rule.status, memory))
    if heard := re.search(rf"\b(?:heard\s+back|news)\s+from\s+{_COMPANY}", sentence):
        memory.last_company = _company(heard.group("company")) or memory.last_company
    return found
