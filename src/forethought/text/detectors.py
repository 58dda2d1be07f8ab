"""Pattern sets that find secrets and personal data in text, for validation, capture and check.

    find_secrets(text)        api_key, token (bearer / JWT / HTTP Basic / webhook URL), private_key,
                              password, connection_string; issuers' shapes (sk-, gh*_, AKIA, xox*-, glpat-,
                              npm_, hf_, SG., pypi-, AIza, Firebase AAAA...:, ft_ keys) and keys named by what
                              they open ("the server key is ...", "AccountKey=...")
    find_personal_data(text)  card (Luhn-checked), email, phone
    find_cards(text)          cards only: redacted whatever an app's personal-data policy
    redact(text, spans)       each span replaced by its placeholder: [REDACTED:api_key], [email], ...
    redact_all(text, finder)  find and redact, then again on the NFKC-folded result if it still leaks
    find_phrase(TRANSIENT | DEFERRED, text)   the first phrase of a set found, or None

Instruction-like text has its own module, `text/injection.py`.

Spans never overlap and come in text order. Where a pattern has a keyword and a value
("password: x", "api_key=x", "postgres://user:pass@host"), only the value is redacted, so the
redacted text still says what was there. Every quantifier is bounded, so scanning a long turn
stays linear. What is deliberately *not* matched (each pinned by a test):
- `sk-`, `ghp_`... inside a word ("task-runner"), or bodies without a digit ("sk-learn-...");
- UUIDs, commit hashes and other bare hex strings (not secrets without a keyword such as api_key=);
- dates, year ranges (2019-2023), versions (v1.2.3-4567), IP addresses, times, amounts;
- digit groups glued to letters or a hyphen, e.g. order ids "ORD-2024-555-1234" (an identifier, not
  a phone); bare digit runs without separators unless a phone word (call, phone, mobile...) precedes;
- SSH remotes "git@github.com:org/repo" and image names "icon@2x.png" (not email addresses).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from forethought.text.normalize import fold

__all__ = [
    "DEFERRED",
    "TRANSIENT",
    "Span",
    "find_cards",
    "find_personal_data",
    "find_phrase",
    "find_secrets",
    "redact",
    "redact_all",
]


@dataclass(frozen=True, slots=True)
class Span:
    """Where a secret or a piece of personal data sits in a text (end exclusive)."""

    start: int
    end: int
    kind: str
    category: Literal["secret", "personal_data"]

    @property
    def replacement(self) -> str:
        return f"[REDACTED:{self.kind}]" if self.category == "secret" else f"[{self.kind}]"


def _mixed(value: str, after: str = "") -> bool:  # random-looking, as keys are (words and placeholders are not)
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


_NOT_A_PASSWORD = frozenset(
    {"a", "an", "the", "not", "set", "required", "incorrect", "wrong", "correct", "invalid", "strong", "weak", "too"}
    | {"very", "case", "still", "also", "being", "now", "in", "on", "at", "for", "of", "to", "by", "with", "from"}
    | {"and", "or", "but", "that", "this", "same", "different"}
)


def _password_value(value: str, after: str) -> bool:
    """Whether the word after "password is" is a password, not prose ("the password is stored in...")."""
    bare = value.strip("\"'")
    if not bare or "[REDACTED" in bare or set(bare) <= {"*", "•"} or bare.casefold() in _NOT_A_PASSWORD:
        return False
    if any(not c.isalpha() for c in bare):
        return True
    # A lone word is a password only at a clause end, and never a participle ("is rotated monthly").
    return not bare.endswith(("ed", "ing")) and (after == "" or after[0] in ".,;!?\n")


@dataclass(frozen=True, slots=True)
class _Secret:
    kind: str
    pattern: re.Pattern[str]
    check: Callable[[str, str], bool] | None = None  # (value, next character) -> is a secret; see find_secrets


# A password: inside quotes (the quotes are kept, so JSON stays JSON), or up to a space or comma.
_VALUE = r"[\"']?(?P<v>(?<=\")[^\"\n]{1,200}(?=\")|(?<=')[^'\n]{1,200}(?=')|[^\s\"',;]{1,200})"
_KEY_BODY = r"[A-Za-z0-9_\-./+=~]{16,500}"

# Issuers' token shapes, each a prefix and a body: Groq, GitHub, Slack, Stripe-style live/test keys,
# GitLab, npm, Hugging Face, SendGrid, PyPI, Firebase server keys.
_ISSUED = (
    r"gsk_[A-Za-z0-9]{20,200}",
    r"gh[pousr]_[A-Za-z0-9]{30,255}",
    r"github_pat_[A-Za-z0-9_]{22,255}",
    r"xox[abposr]-[A-Za-z0-9-]{10,250}",
    r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,250}",
    r"(?:glpat|gldt|glrt|glptt)-[A-Za-z0-9_-]{20,255}",
    r"npm_[A-Za-z0-9]{30,255}",
    r"hf_[A-Za-z0-9]{30,255}",
    r"SG\.[A-Za-z0-9_-]{16,100}\.[A-Za-z0-9_-]{16,100}",
    r"pypi-[A-Za-z0-9_-]{50,400}",
    r"AAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{30,300}",
    r"ft_[0-9a-f]{12}_[A-Za-z0-9_-]{40,60}",  # this project's own API keys
)
# What a credential opens may stand between its name and its value ("the relay token for gate-7 is").
_OPENS = r"(?:\s{1,3}(?:for|of|on|to)\s{1,3}[\w.@-]{1,40}(?:\s{1,3}[\w.@-]{1,40}){0,2}?)?"

_SECRETS: tuple[_Secret, ...] = (
    _Secret(
        "private_key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]{0,20000}?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?:\s+[A-Za-z0-9+/=]{16,}){0,400})"
        ),
    ),
    _Secret(
        "api_key",
        re.compile(r"(?<![A-Za-z0-9])sk-(?:proj-|svcacct-|admin-|ant-)?(?P<body>[\w-]{20,300})", re.A),
        _mixed,
    ),
    # Not inside a word ("task-runner"), but glued by - or _ to an identifier or a file name it may be.
    _Secret("api_key", re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(_ISSUED) + ")")),
    _Secret("api_key", re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")),
    _Secret("api_key", re.compile(r"(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])")),
    # Webhook URLs carry their secret in the path (Slack, Discord).
    _Secret(
        "token",
        re.compile(r"(?i)https://hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>[A-Za-z0-9/_-]{20,300})"),
    ),
    _Secret(
        "token",
        re.compile(r"(?i)https://(?:\w+\.)?discord(?:app)?\.com/api/webhooks/(?P<v>\d{5,30}/[A-Za-z0-9_-]{20,200})"),
    ),
    # HTTP Basic credentials, and keys named by what they open ("the server key is ...").
    _Secret("token", re.compile(r"(?i)\bbasic\s+(?P<v>[A-Za-z0-9+/]{16,2000}={0,2})"), _mixed),
    _Secret(  # any other key or credential ("the server key is ...", AccountKey=...): a mixed-case value
        "api_key",
        re.compile(
            r"(?i)\b(?:[a-z]{0,20}key|credentials?|creds)[\"']?"
            + _OPENS
            + r"\s{0,3}(?:[:=]|\bis\b)\s{0,3}[\"']?(?P<v>[A-Za-z0-9_\-./+=~:]{20,500})"
        ),
        lambda v, _: _mixed(v, _) and any(c.isupper() for c in v) and any(c.islower() for c in v),
    ),
    _Secret(
        "token", re.compile(r"(?<![\w-])eyJ[A-Za-z0-9_-]{5,4000}\.eyJ[A-Za-z0-9_-]{5,4000}\.[A-Za-z0-9_-]{0,4000}")
    ),
    _Secret("token", re.compile(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9\-._~+/]{16,4000}=*)"), _mixed),
    _Secret(
        "api_key",  # api_key=..., SECRET_KEY: ..., "access_token": "...", my API key is ...
        re.compile(
            r"(?i)(?<![\w-])[a-z0-9_-]{0,40}(?:api[ _-]?key|secret|token|access[_-]?key)[a-z0-9_-]{0,20}[\"']?"
            + _OPENS
            + rf"\s{{0,3}}(?:[:=]|\bis\b)\s{{0,3}}[\"']?(?P<v>{_KEY_BODY})"
        ),
        _mixed,
    ),
    _Secret(
        "password",
        re.compile(rf"(?i)\b(?:password|passwd|passphrase|pwd|pw)[\"']?\s{{0,3}}[:=]\s{{0,3}}{_VALUE}"),
        lambda v, _: "[REDACTED" not in v and bool(set(v) - {"*"}),
    ),
    _Secret(
        "password",  # "my password is X", "the password for the portal is X"
        re.compile(rf"(?i)\b(?:password|passphrase|passcode)\s+(?:for\s+[^.\n]{{1,40}}?\s+)?(?:is|was)\s+{_VALUE}"),
        _password_value,
    ),
    _Secret(
        "connection_string",  # scheme://user:password@host: only the credentials are redacted
        re.compile(r"(?i)\b[a-z][a-z0-9+.-]{1,20}://(?P<v>[^\s:/?#@]{0,200}:[^\s/?#@]{1,200})@"),
        lambda v, _: "[REDACTED" not in v,
    ),
)


def _take(kept: list[Span], new: Iterable[Span]) -> list[Span]:
    """`kept` (sorted, disjoint) with the spans of `new` (sorted) that overlap none of it: a linear merge."""
    out: list[Span] = []
    i = 0
    for span in new:
        while i < len(kept) and kept[i].end <= span.start:
            out.append(kept[i])
            i += 1
        if (i < len(kept) and kept[i].start < span.end) or (out and out[-1].end > span.start):
            continue  # overlaps a span kept earlier: the earlier pattern set wins
        out.append(span)
    return out + kept[i:]


def find_secrets(text: str) -> list[Span]:
    """Every secret in `text`, in order; overlapping matches are folded into the first one found."""
    kept: list[Span] = []
    for secret in _SECRETS:
        group = "v" if "v" in secret.pattern.groupindex else 0  # only the value is redacted; else the match
        found: list[Span] = []
        for m in secret.pattern.finditer(text):
            value = m.group("body" if "body" in secret.pattern.groupindex else group)
            if secret.check is None or secret.check(value, text[m.end() : m.end() + 1]):
                found.append(Span(m.start(group), m.end(group), secret.kind, "secret"))
        kept = _take(kept, found)
    return kept


_CARD = re.compile(r"(?<![\w+-])\d(?:[ -]?\d){12,18}(?!\w|-\d)", re.ASCII)
_EMAIL = re.compile(
    r"(?<![\w.+%:/-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}(?P<tld>[A-Za-z]{2,24})"
    r"(?![\w-]|\.[A-Za-z0-9]|:[\w~/])"
)
_FILE_SUFFIXES = frozenset({"png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "tif", "tiff", "pdf"})
# A run of digits and phone separators; its shape is checked below.
_PHONE_RUN = re.compile(r"(?<![\w+/.:-])(?:\+\s?)?\(?\d[\d ().-]{5,22}\d\)?(?![\w/]|[.:-]\d)", re.ASCII)
_PHONE_SHAPES = (
    re.compile(r"\+\s?\d{1,3}(?:[ .-]?\(?\d{1,5}\)?){1,6}"),  # international: +33 6 12 34 56 78
    re.compile(r"\(\d{3}\) ?\d{3}[ .-]\d{4}|\d{3}[ .-]\d{3}[ .-]\d{4}"),  # North American
    re.compile(r"\(?0\d{1,4}\)?(?:[ .-]\d{2,4}){2,4}|\(?0\d{1,4}\)?[ .-]\d{5,8}"),  # national trunk 0: UK, FR, DE
)
_PHONE_CUE = re.compile(
    r"(?i)\b(?:phone|tel|telephone|mobile|cell|call|ring|whatsapp|signal|sms|text me|fax|my number)\b[^\n\d]{0,25}$"
)
# Dates (ISO and day-month-year) and IP addresses.
_NOT_PHONE = re.compile(r"\d{4}[-./ ]\d{1,2}[-./ ]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}|\d{1,3}(?:\.\d{1,3}){3}")


def _luhn_valid(digits: str) -> bool:
    doubled = (sum(divmod(2 * int(d), 10)) for d in digits[-2::-2])
    return (sum(int(d) for d in digits[-1::-2]) + sum(doubled)) % 10 == 0


def _cards(text: str) -> Iterable[Span]:
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if _luhn_valid(digits) and len(set(digits)) > 1:
            yield Span(m.start(), m.end(), "card", "personal_data")


def _emails(text: str) -> Iterable[Span]:
    for m in _EMAIL.finditer(text):
        if m.group("tld").lower() not in _FILE_SUFFIXES:
            yield Span(m.start(), m.end(), "email", "personal_data")


def _phones(text: str) -> Iterable[Span]:
    for m in _PHONE_RUN.finditer(text):
        run = m.group()
        digits = sum(c.isdigit() for c in run)
        if not 7 <= digits <= 15 or _NOT_PHONE.fullmatch(run.strip("()")):
            continue
        cued = _PHONE_CUE.search(text, max(0, m.start() - 40), m.start()) is not None
        for shape in _PHONE_SHAPES:
            hit = shape.match(run)
            if hit and (hit.end() == len(run) or not run[hit.end()].isdigit()):
                end = m.start() + len(hit.group().rstrip(" .-"))
                if sum(c.isdigit() for c in hit.group()) >= (7 if cued else 9):
                    yield Span(m.start(), end, "phone", "personal_data")
                    break
        else:
            if cued and digits >= 8:
                yield Span(m.start(), m.end(), "phone", "personal_data")


def find_cards(text: str) -> list[Span]:
    """Payment card numbers only (what `find_personal_data` gives of kind "card": cards win overlaps)."""
    return list(_cards(text))


def find_personal_data(text: str) -> list[Span]:
    """Payment cards (13-19 digits, Luhn-valid), email addresses and phone numbers, in order."""
    return _take(_take(list(_cards(text)), _emails(text)), _phones(text))  # on overlap, cards win, then emails


def _phrases(*patterns: str) -> tuple[re.Pattern[str], ...]:
    """Phrase patterns: matched against text folded, case-folded, with spaces collapsed."""
    return tuple(re.compile(p) for p in patterns)


TRANSIENT = _phrases(
    r"\b(?:i'm|i am|we're|we are)\s+(?:currently\s+|still\s+)?on\s+(?:the\s+|my\s+)?(?:branch\s+\S+|\S+\s+branch\b)",
    r"\bon\s+(?:the\s+|my\s+)?[\w.-]+/[\w./-]+\s+branch\b",  # on the feature/x branch
    r"\b(?:checked out|switched to)\s+(?:branch\s+)?[\w.-]+/[\w./-]+",
    r"\bmy\s+(?:laptop|(?:local|feature|own)\s+(?:branch|machine|setup|env\w*|checkout)|branch)\b",
    r"\bon my (?:machine|box|computer|desktop)\b",
    r"\b(?:right now|at the moment|for now|for the time being|temporarily|as a stopgap)\b",
    r"\bcurrently\s+(?:debugging|investigating|fixing|trying|testing|working on|looking (?:into|at)|stuck)\b",
    r"\btoday,?\s+(?:i'm|i am|we're|we are|i'll|i will|i can't|i cannot)\b",
    r"\b(?:i'm|i am|we're|we are)\b[^.;!?]{0,40}\btoday\b",
    r"\blocal(?:ly)?\s+(?:build|tests?|install)\w*\s+(?:fails?|failing|failed|breaks?|broke|broken|errors?)\b",
    r"\b(?:build|tests?|install)\w*\s+(?:fails?|failing|failed|breaks?|broke|errors? out)\b[^.;]{0,40}?"
    r"\b(?:locally|on my|for me)\b",
    r"\b(?:i'm|i am)\s+(?:still\s+)?(?:on|using|running)\s+(?:node|python|java|ruby|go|php|npm|xcode)\s*v?\d",
)

DEFERRED = _phrases(
    r"\bnot\s+(?:in\s+|for\s+)?this\s+(?:sprint|quarter|release|milestone|iteration|cycle)\b",
    r"\bmaybe\s+(?:later|someday|one day|next\s+(?:year|quarter|sprint|release))\b",
    r"\bsome\s?day\b|\bone day,?\s+(?:we|i)\b",
    r"\bwe\s+might\b",
    r"\b(?:let's|let us|we should|we'll|we will|we can)\s+revisit\b|\brevisit\s+(?:this|that|it)\s+later\b",
    r"\bnice[ -]to[ -]have\b",
    r"\bin the future,?\s+(?:we|i|you)\s+(?:could|might|may|should|would|can)\b",
    r"\b(?:parking|park|parked)\s+(?:this|that|it)\b|\bparking lot\b",
    r"\b(?:down the road|at some point|eventually),?\s+(?:we|i)\s+(?:could|might|may|should|would|can)\b",
    r"\bif we (?:ever )?(?:have|get|find) (?:the |some )?time\b",
)


def find_phrase(patterns: Sequence[re.Pattern[str]], text: str) -> str | None:
    """The first phrase of `patterns` found in `text` (as matched, in phrase form), or None."""
    form = " ".join(fold(text).casefold().split())
    return next((m.group().strip(" .:;!?") for p in patterns if (m := p.search(form))), None)


def redact(text: str, spans: Sequence[Span]) -> str:
    """`text` with each span replaced by its placeholder; overlapping spans (say, from two finders)
    are redacted as one, under the placeholder of the first."""
    out, position = [], 0
    for span in sorted(spans, key=lambda s: s.start):
        if span.start >= position:
            out += [text[position : span.start], span.replacement]
        position = max(position, span.end)
    return "".join(out) + text[position:]


def redact_all(text: str, finder: Callable[[str], list[Span]]) -> tuple[str, list[Span]]:
    """`text` redacted with what `finder` finds, and the spans. If the folded form (NFKC, no
    zero-width characters) of the result still holds something, e.g. a key in full-width letters
    or split by zero-width spaces, that form is redacted and returned instead."""
    spans = finder(text)
    out = redact(text, spans)
    if (folded := fold(out)) != out and (more := finder(folded)):
        return redact(folded, more), spans + more
    return out, spans
