"""Deterministic check patterns derived from a rule's wording.

A pattern is only derived when the rule names something concrete in code; a vague rule ("keep
functions small") gets none, because a pattern that fires on every draft is worse than no pattern.
Derivation rules, in order:

1. **Forbidden storage.** "never store/put/keep <thing> in <localStorage|sessionStorage|AsyncStorage>"
   and "don't use <storage> for <thing>" forbid writing that thing there:
   `localStorage.setItem(<args naming the thing>)` and `localStorage[...thing...] =` / `.thing =`.
   Using the storage for anything else stays allowed (no loose "any localStorage" pattern).
2. **Forbidden logging.** "never/don't log <thing>" forbids a logging call (console.*, logger.*,
   log.*, logging.*, print) whose arguments name the thing on the same line; "personal data"/"PII"
   expands to email, phone, address and SSN.
3. **Singletons.** "use the <Class> singleton" and "never instantiate/create a new <Class>" forbid
   `new <Class>(`.
4. **Forbidden libraries and APIs.** "don't/never use|import|call|add <name>", "use Y instead of /
   rather than / over <name>", "use Y, not <name>" and "<name> is banned/deprecated" forbid, for a
   dotted API (`console.log`, `requests.get`), calling it; for a package (`moment.js`, `lodash`,
   `@scope/pkg`), importing it (JS `import`/`require`, Python `import`/`from`) and, when the name is
   written in code case and is not an everyday word, calling it (`moment(`). A rule with an
   exception ("without a timeout", "unless ...") derives nothing: the regex cannot see the exception.
5. **Required headers.** A positive rule (must/always/every/all, not negated) that sends, includes,
   sets or carries a header by name (`X-...`, Authorization, Idempotency-Key) requires the name.
6. **Banned names** (`banned.py`): names a negating clause of the rule names ("zap, logrus and
   zerolog are not allowed", "click is no longer used", "never use select *", "no axios"), beside
   the libraries of rule 4 ("never import A or B" bans both); a plain word only on import and
   dependency lines (manifests, build coordinates, `gem`/`pod`).
7. **Shaped forms** (`forms.py`): table writes, sinks (logs, Sentry, console, analytics), exact
   version pins, return types, snake_case keys, leading wildcards, schema renames and drops,
   "no X logic in <language>", arguments, "nothing outside P imports X", "only in CI with T".
8. **Forbidden actions** (`actions.py`): "no write calls", "do not redact by drawing rectangles",
   "never runs ffmpeg" forbid the call or command that performs them.
A sentence a specific form (1-3, 7) reads is left to it; the rule's other sentences still ban names
(4, 6) and actions (8).
9. **Required calls.** A positive rule that names a call written with parentheses
   (`requireRole('admin')`) and says to go through / call / wrap in / use it requires `name(`.

Every pattern escapes the names it embeds, uses only bounded repetition on character classes
(`[^)]{0,200}`), and no nested quantifiers, so matching is linear in the draft's length.
"""

from __future__ import annotations

import re

from forethought.apps.project.actions import action_patterns
from forethought.apps.project.banned import banned_patterns, import_line, manifest_line, siblings
from forethought.apps.project.forms import form_patterns
from forethought.domain.candidates import CheckPatterns
from forethought.domain.limits import MAX_PATTERN_LENGTH, MAX_PATTERNS
from forethought.text.words import vocabulary

__all__ = ["derive_patterns"]

_NEGATIVE = r"(?:never|don'?t|do\s+not|no\s+longer|stop|avoid|must\s+not|mustn'?t|shouldn'?t|should\s+not)"
_NAME = r"`?(?P<name>@?[A-Za-z_$][\w$@./-]*[\w$])`?"
_STORAGES = r"(?P<where>localStorage|sessionStorage|AsyncStorage)"
_STORE_IN = re.compile(
    _NEGATIVE + r"\s+(?:store|put|keep|save|persist|write|cache)\s+(?P<thing>[\w\s-]{1,60}?)\s+(?:in|into|to)\s+"
    r"(?:the\s+)?" + _STORAGES,
    re.I,
)
_USE_FOR = re.compile(
    _NEGATIVE + r"\s+use\s+" + _STORAGES + r"\s+(?:for|to\s+store)\s+(?P<thing>[\w\s-]{1,60}?)(?:[.;,:—]|$)", re.I
)
_LOG = re.compile(_NEGATIVE + r"\s+log\s+(?P<thing>[\w\s'-]{1,60}?)(?:[.;,:—(]|\s+(?:at|in|to|on|even)\b|$)", re.I)
_SINGLETON = re.compile(
    r"(?:use|through|import)\s+(?:the\s+)?`?(?P<cls>[A-Z]\w+)`?\s+singleton"
    r"|" + _NEGATIVE + r"\s+(?:instantiate|create|construct)\s+(?:a\s+)?(?:new\s+)?`?(?P<cls2>[A-Z]\w+)`?",
)
_FORBID_USE = [
    re.compile(
        _NEGATIVE + r"\s+(?:use|using|import|importing|call|calling|add|adding|pull|install)\s+"
        r"(?:the\s+|any\s+|an?\s+)?" + _NAME,
        re.I,
    ),
    re.compile(r"\buse\s+`?[@\w][\w@./-]*`?\s+(?:instead\s+of|rather\s+than|over)\s+" + _NAME, re.I),
    re.compile(r"\buse\s+`?[@\w][\w@./-]*`?[^,.;]{0,60},\s+not\s+" + _NAME, re.I),
    re.compile(r"\bimport\w*\s+[^,.;]{0,80},\s+not\s+(?:from\s+)?" + _NAME, re.I),
    re.compile(_NAME + r"\s+is\s+(?:banned|deprecated|forbidden|not\s+allowed)", re.I),
    re.compile(
        r"\b(?:nothing|nobody|no\s+one|no\s+other\s+code)\s+(?:else\s+)?(?:[\w ]{0,40}?\s)?"
        r"(?:calls?|uses?|talks?\s+to|touch(?:es)?)\s+(?:the\s+)?" + _NAME + r"\s+directly",
        re.I,
    ),
]
_STAR = re.compile(r"^\s*\*")
_SENTENCE = re.compile(r"(?<=;)\s*|(?<=\.)\s+")
_EXCEPTION = re.compile(r"^\W{0,3}(?:\w+\W+){0,3}?(?:without|unless|except|outside|other\s+than)\b", re.I)
_HEADER = re.compile(r"(?<![\w-])(?P<h>X-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+|Authorization|Idempotency-Key)(?![\w-])")
_POSITIVE = re.compile(r"\b(?:must|always|every|all|each|required?)\b", re.I)
_NEGATED = re.compile(_NEGATIVE + r"\b", re.I)
_SEND = re.compile(r"\b(?:send|sends|include|includes|set|sets|carry|carries|attach|add|pass|with)\b", re.I)
_CALL = re.compile(r"(?<![\w.$])(?P<fn>[A-Za-z_$][\w$]*)\((?:[^()\n]{0,80})\)")
_GO_THROUGH = re.compile(r"\b(?:go\s+through|goes\s+through|call|calls|wrap\w*|use|uses|via)\b", re.I)


# Everyday words that follow "don't use" without naming code ("don't use floats", "any other").
_STOPWORDS = vocabulary(
    "a an the any another other more new old it this that these those them raw plain global inline default "
    "floats float strings numbers classes promises callbacks mocks tabs spaces emojis magic hard hardcoded "
    "upstream external third-party vendor manual custom our your their its same different separate extra "
    "real fake live local remote long short big small"
)
_EVERYDAY = vocabulary("request requests date time path http test log util utils fetch format data json")
_PII = r"(?:e-?mail|phone|address|ssn)"
# The last word of a product's name, not the product ("the Prosys OPC UA SDK is not allowed").
_GENERIC = vocabulary("sdk api apis library libraries lib client package module framework plugin driver toolkit")


def _word_pattern(phrase: str) -> str | None:
    """The regex for a noun phrase's head word: 'refresh tokens' -> token(s), 'request bodies' -> bod(y|ies)."""
    words: list[str] = re.findall(r"[A-Za-z]+", phrase)
    words = [w for w in words if w.lower() not in _STOPWORDS and w.lower() not in {"full", "user", "users", "all"}]
    if not words:
        return None
    head = words[-1].lower()
    if head in {"pii"} or (len(words) >= 2 and f"{words[-2]} {words[-1]}".lower() == "personal data"):
        return _PII
    if head.endswith("ies") and len(head) > 4:
        return re.escape(head[:-3]) + "(?:y|ies)"
    if head.endswith("s") and not head.endswith("ss") and len(head) > 3:
        head = head[:-1]
    if head in {"email", "emails"}:
        return "e-?mail"
    return re.escape(head)


def _storage(where: str, thing: str) -> list[str]:
    word = _word_pattern(thing)
    if word is None:
        return []
    w = re.escape(where)
    return [
        rf"\b{w}\s*\.\s*setItem\s*\(\s*[^)]{{0,200}}(?i:{word})",
        rf"\b{w}\s*(?:\[[^\]]{{0,200}}(?i:{word})[^\]]{{0,200}}\]|\.\w{{0,40}}(?i:{word})\w{{0,40}})\s*=(?!=)",
    ]


def _logging(thing: str) -> list[str]:
    word = _word_pattern(thing)
    if word is None:
        return []
    call = r"\b(?:console\.(?:log|info|warn|error|debug|trace)|(?:logger|log|logging)\.\w{1,20}|print)"
    return [rf"{call}\s*\([^\n]{{0,200}}(?i:{word})"]


def _library(name: str, rule: str) -> list[str]:
    name = name.strip("`").rstrip(".")
    if name.lower() in _STOPWORDS or name.lower() in _GENERIC or len(name) < 2:
        return []
    package = re.sub(r"\.(?:js|ts)$", "", name, flags=re.I)
    if "." in package and not package.startswith("@"):  # an API: console.log, requests.get
        return [r"\b" + re.escape(package) + r"\s*\("]
    if not re.fullmatch(r"@?[\w.-]+(?:/[\w.-]+)?", package):
        return []
    lowered = re.escape(package.lower())
    kin = siblings(rule, package, {package})
    patterns = [
        rf"(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*)['\"](?i:{lowered})(?:/[^'\"\n]{{0,100}})?['\"]",
        import_line(package, siblings=kin),
        manifest_line(package, siblings=kin),
    ]
    if re.fullmatch(r"[A-Za-z_]\w*", package):
        patterns.append(rf"(?m:^[ \t]*(?:from|import)[ \t]+(?i:{lowered})\b)")
    code_case = package != name or package[0].islower() or any(c.isupper() for c in package[1:])
    callable_name = re.fullmatch(r"[A-Za-z_$][\w$]*", package) and len(package) >= 4
    if callable_name and code_case and package.lower() not in _EVERYDAY:
        patterns.append(r"\b" + re.escape(package) + r"\s*\(")
    return patterns


def _specific(rule: str) -> list[str]:
    """The patterns of the specific forms (storage, logging, singletons, `forms.py`)."""
    out: list[str] = []
    for m in _STORE_IN.finditer(rule):
        out += _storage(m.group("where"), m.group("thing"))
    for m in _USE_FOR.finditer(rule):
        out += _storage(m.group("where"), m.group("thing"))
    for m in _LOG.finditer(rule):
        out += _logging(m.group("thing"))
    for m in _SINGLETON.finditer(rule):
        cls = m.group("cls") or m.group("cls2")
        out.append(r"\bnew\s+" + re.escape(cls) + r"\s*\(")
    out += form_patterns(rule)
    return out


def _forbidden(rule: str) -> list[str]:
    out = _specific(rule)
    # A sentence a specific form read already says what it forbids; the others may still ban names.
    rest = " ".join(part for part in _SENTENCE.split(rule) if part.strip() and not _specific(part)) if out else rule
    if not rest.strip():
        return out
    out += banned_patterns(rest)  # with the libraries below: "never import A or B" bans both
    for rx in _FORBID_USE:
        for m in rx.finditer(rest):
            if _EXCEPTION.match(rest[m.end() :]) or _STAR.match(rest[m.end() :]):
                continue  # an exception the regex cannot see; `select *` is banned.py's
            out += _library(m.group("name"), rest)
    out += action_patterns(rest)
    return out


def _required(rule: str) -> list[str]:
    if _NEGATED.search(rule) or not _POSITIVE.search(rule):
        return []
    out: list[str] = []
    if _SEND.search(rule):
        out += [rf"(?i:(?<![\w-]){re.escape(m.group('h'))}(?![\w-]))" for m in _HEADER.finditer(rule)]
    if _GO_THROUGH.search(rule):
        out += [r"\b" + re.escape(m.group("fn")) + r"\s*\(" for m in _CALL.finditer(rule)]
    return out


def derive_patterns(rule: str) -> CheckPatterns | None:
    """Forbid/require regexes for a rule, or None when it names nothing concrete enough to check."""
    # Within what a record may carry: deriving patterns never makes a write fail.
    fits = [p for p in dict.fromkeys(_required(rule)) if len(p) <= MAX_PATTERN_LENGTH][:MAX_PATTERNS]
    require = tuple(fits)
    forbid = tuple(p for p in dict.fromkeys(_forbidden(rule)) if len(p) <= MAX_PATTERN_LENGTH)[
        : MAX_PATTERNS - len(require)
    ]
    if not forbid and not require:
        return None
    return CheckPatterns(forbid=forbid, require=require)
