"""Names a rule bans, read off its own wording, and the patterns that find them in a draft.

A rule is cut into clauses (at `;`, `.`, dashes, brackets, "but"); in a clause that negates ("not",
"never", "no longer", "banned", "removed", "instead of", ...) without an exception ("without",
"unless", "except": a regex cannot see those), these are banned:
- the names of the list a negation is said of ("zap, logrus and zerolog are not allowed",
  "redigo must not be added", "click is no longer used directly"), plain words included;
- in a clause that says something is out ("banned", "removed", "deprecated", "not allowed", "no
  longer used"), its code-shaped names (backticked, dotted, camelCase, snake_case, packages and
  paths with `/`, `-`, `@`, `.module.css`) and capitalised product names (`Redux`, `Luxon`);
- a code-shaped or capitalised name after "no" ("no Redux"), and the code-shaped names of a list
  right after "never", "no" or "avoid" ("never floats or toFixed", "no new .module.css files");
- a command of two or three plain words said to be gone ("make judge is gone"), matched whole;
- `select *` when the clause says it.
"X is deprecated, use Y" is two clauses: Y is what the rule allows.
A verb with an object ("never send the X-Debug header to production", "import icons from A, not
B") is a scoped rule, not a ban on the name: the phrase rules in `patterns.py` handle those, and
this module adds nothing when they already derived a pattern.
A longer name the rule says beside a banned one is not the banned one: "no date-fns for zones, use
date-fns-tz", "no alloc Vec, heapless::Vec only" — import and manifest lines naming `date-fns-tz`
or `heapless::Vec` are left alone (`siblings`).
A name the rule also uses in a clause that does not negate is never banned ("log/slog only; zap
... not allowed" bans zap, not slog). Code-shaped names are found as tokens anywhere in the
draft (a suffix such as `.module.css` at the end of a file name; a capitalised product name also
on import lines in any case, so "Redux" finds `react-redux`); plain words only on import lines
(`import`, `from`, `require`, `#include`, `use`, a Go import-block line), where an everyday word
is almost never an accident. Every pattern escapes the name and uses bounded repetition only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from forethought.apps.project.areas import code_identifiers
from forethought.domain.limits import MAX_PATTERN_LENGTH

__all__ = ["banned_patterns", "clauses", "import_line", "manifest_line", "normalised", "siblings"]

_CLAUSE = re.compile(
    r";\s*|\.\s+|\s[—–]\s|\s-\s|[()]|,?\s+(?:but|whereas)\s+|,?\s+and\s+(?=(?:no|never|not)\b)"
    r"|,\s+(?=(?:use|prefer|go\s+through)\b)"  # "X is deprecated, use Y": Y is what the rule allows
    r"|,\s+(?=not\s)"  # "plain matplotlib, not seaborn": the second clause bans
)
_NEGATES = re.compile(
    r"\b(?:not|never|no|no\s+longer|no\s+new|banned|forbidden|removed|dropped|deprecated|instead\s+of|rather\s+than|"
    r"avoid|don'?t|mustn'?t|isn'?t|aren'?t|gone|stop(?:ped)?|ban|got\s+rid\s+of|off\s+the\s+table|mov(?:e|ed|ing)\s+off"
    r"|say\s+no\s+to|phas(?:e|ed|ing)\s+out|ripped\s+out|nobody\s+should)\b",
    re.I,
)
_EXCEPTION = re.compile(r"\b(?:without|unless|except|other\s+than)\b", re.I)
_ITEM = r"`?@?[\w][\w@./+-]*`?"
_ITEM_AT = r"`?[.@]?[\w][\w@.+-]*`?"  # an item after a negation: a name, package or suffix (no paths)
_SEP = r"(?:\s*,\s*|\s+(?:or|nor|and)\s+|\s*/\s*)"
# A clause's subject list and its verb ("zap, logrus and zerolog are", "lodash itself must").
_SUBJECT_HEAD = (
    rf"^(?:the\s+)?(?P<list>{_ITEM}(?:(?:\s*,\s*|\s+(?:and|or|nor)\s+|\s+/\s+){_ITEM})*)\s+(?:itself\s+|themselves\s+)?"
    r"(?:is|are|must|should|may|can|stays?|was|were|ha(?:s|ve|d)\s+been)\s+(?:still\s+|also\s+)?"
)
_SUBJECT = re.compile(
    _SUBJECT_HEAD + r"(?:being\s+|now\s+|getting\s+|to\s+be\s+)?"
    r"(?:(?:not|no\s+longer|never)\s+(?:be\s+|to\s+be\s+|being\s+|get\s+|)?(?:used|allowed|added|imported|installed"
    r"|permitted|pulled\s+in|an\s+option|welcome|needed|supported|required|included|in\s+use)"
    r"|banned|forbidden|removed|dropped|deprecated|gone|off\s+the\s+table|phased\s+out|ripped\s+out)\b",
    re.I,
)
# Any negated predicate ("`debug` and `trace` are never enabled", "`write-all` is never set"): bans only
# backticked names, which are values of code; a plain subject needs a ban predicate (`_SUBJECT`).
_SUBJECT_ANY = re.compile(_SUBJECT_HEAD + r"(?:not|no\s+longer|never)\b", re.I)
_PACKAGE_LIKE = re.compile(r"^@?[A-Za-z][\w.+-]*[/.@-][\w./@+-]*[\w]$|^\.[\w.-]+$")
_CAPITALISED = re.compile(r"(?<![\w./-])([A-Z][a-z]+(?:[A-Z][a-z]+)*)(?![\w./-])")
_HUMPS = re.compile(r"[A-Z][a-z\d]+[A-Z]")  # `RestHighLevelClient`, `ReplacingMergeTree`: a code name
_ONE_CAPITAL = re.compile(r"[A-Z][a-z]+")  # "never Redux": a product's name; `ReplacingMergeTree` is code
_PARTICIPLE = re.compile(r"^[a-z]+(?:-[a-z]+)*-[a-z]+ed$")  # "hard-deleted", "hand-rolled": English, not a package
_SELECT_STAR = re.compile(r"\bselect\s*\*", re.I)
# A clause that says a named thing is out (not a verb with an object: "never send X to prod" is a
# scoped rule, not a ban on X).
_BAN_PHRASE = re.compile(
    r"\b(?:banned|forbidden|removed|dropped|deprecated|gone|got\s+rid\s+of|off\s+the\s+table|phased\s+out|ripped\s+out"
    r"|not\s+(?:allowed|used|added|permitted|an\s+option)|"
    r"no\s+longer\s+(?:used|allowed|permitted|needed|supported))\b",
    re.I,
)
# A place after the ban ("not allowed in logs", "banned from URLs"): the rule keeps the names out of
# that place (`forms.py`'s sinks), it does not ban them everywhere.
_PLACED = re.compile(r"\s+(?:in|into|to|from|inside|within|on)\s+(?:the\s+|any\s+)?(?:\w+\s+)?(?:logs?|sentry|console"
                     r"|analytics|urls?|file\s*names?|filenames|paths?|metrics|traces|events|errors?|payloads?|prod\w*"
                     r"|tests?|ci|client|browser|frontend|backend|responses?|messages?)\b", re.I)  # fmt: skip
_NO_NAME = re.compile(r"\bno\s+(@?[\w][\w@./+-]*)", re.I)
# The list a negation word opens ("never floats or toFixed", "no new .module.css files", "no malloc or k_malloc").
_AFTER_NEGATION = re.compile(
    rf"\b(?P<neg>say\s+no\s+to|moving\s+off|never|no|avoid|not|stop|ban|don'?t|do\s+not)\s+"
    rf"(?P<verb>(?:use|using|import|importing|add|adding|call|calling|install|installing|pull(?:ing)?\s+in"
    rf"|depend\s+on|reach\s+for|the\s+use\s+of)\s+)?"
    rf"(?:(?:new|more|such|any|other)\s+)?(?P<list>{_ITEM_AT}(?:{_SEP}{_ITEM_AT}){{0,6}})",
    re.I,
)
# Words after "no" that are English, not a name a draft would import ("no new code", "no caret ranges").
_NOT_NAMES = frozenset(
    """a an the one two any other more new old such direct directly manual ad hoc hand hard raw plain inline
    global local public private git path code file files data longer way need more less than that this it
    them we you they caret tilde range ranges floating magic mutable shared floats float strings string numbers
    number classes promises callbacks mocks tabs spaces emojis hardcoded upstream external vendor custom our
    your their its same different separate extra real fake live remote long short big small another some
    every each all these those too much many""".split()  # noqa: SIM905
)
# A command or phrase of two or three plain words said to be out ("make judge is gone").
_PHRASE_OUT = re.compile(
    r"^(?:the\s+)?(?P<phrase>[a-z][\w-]*(?:\s+[a-z][\w-]*){1,2})\s+(?:is|are)\s+(?:now\s+)?"
    r"(?:gone|removed|deprecated|banned|dead|no\s+longer\s+(?:used|allowed|supported))\b"
)
_CAPS_WORDS = (
    "The A An No Never Not Only All Every Each Any We Our It This That These Those Use Uses Do Don Don't "
    "Always Also And Or But If When Then Still New Old"
)
_ENGLISH_CAPS = frozenset(_CAPS_WORDS.split())
_SUFFIX = re.compile(r"-(?:py|js|go|rs|python)$", re.I)
_BRACKET_LIST = re.compile(r"\s*\(\s*((?:and|or|nor|plus)\s+[^()]{1,80}?)\s*\)")  # "X (and Y) must not ..."
_NAME_PAIR = re.compile(r"(?<![\w./@-])([A-Za-z][\w.+-]{0,60}[\w+])/([A-Za-z][\w.+-]{0,60}[\w+])(?![\w/@-])")
# "the Prosys OPC UA SDK is not allowed": a product named by its first, capitalised word — unless the
# words after it hold a code name ("the Elasticsearch RestHighLevelClient is banned" bans the client).
_PRODUCT = re.compile(
    r"^(?:the\s+)?(?P<first>[A-Z][a-z][\w.+-]*)(?P<rest>(?:\s+[A-Z][\w.+-]*){1,3})\s+(?:is|are)\s+(?:still\s+|also\s+)?"
    r"(?:not\s+(?:allowed|permitted|used|an\s+option)|banned|forbidden|removed|deprecated|no\s+longer\s+(?:used|allowed))\b"
)


def clauses(rule: str) -> list[str]:
    """The rule cut where one ban or allowance ends and the next begins."""
    return [c.strip(" ,") for c in _CLAUSE.split(rule) if c and c.strip(" ,")]


def _pair(m: re.Match[str]) -> str:
    a, b = m.group(1), m.group(2)
    named = all(re.search(r"[A-Z]", x) and re.search(r"[a-z]", x) for x in (a, b))
    return f"{a} or {b}" if named else m.group(0)


def normalised(rule: str) -> str:
    """The rule with its lists spelled out: "Chart.js (and echarts) must not be added" → "Chart.js and
    echarts must ...", "BullMQ/Redis are not allowed" → "BullMQ or Redis are ..." (two product names,
    each with capitals and small letters; `src/ipc` or `TCP/IP` stay as written)."""
    return _NAME_PAIR.sub(_pair, _BRACKET_LIST.sub(r" \1", rule))


def _code_names(clause: str) -> set[str]:
    code = {n.strip("`()") for n in code_identifiers(clause)}
    code |= {w for w in re.findall(r"[\w@./+-]+", clause) if _PACKAGE_LIKE.match(w)}
    code |= {w for w in _CAPITALISED.findall(clause)[1:] if w not in _ENGLISH_CAPS}  # not the clause's first word
    code = {c.rstrip(".") for c in code if len(c) >= 2 and not c[0].isdigit() and not _PARTICIPLE.match(c)}
    return {c for c in code if not any(c != other and c in other for other in code)}  # the whole path, not its host


def _banned_in(clause: str) -> tuple[set[str], set[str]]:
    """(code-shaped or capitalised names, plain words) a negating clause bans."""
    code, plain = set(), set()
    subject = _SUBJECT.search(clause)
    loose = None if subject else _SUBJECT_ANY.search(clause)
    if loose:
        code |= set(re.findall(r"`([^`\s]{2,100})`", loose.group("list")))
    if subject:
        items = {w.strip("`") for w in re.split(r"\s*,\s*|\s+(?:and|or|nor)\s+|\s+/\s+", subject.group("list"))}
        named = _code_names(subject.group("list"))
        code |= named
        plain |= {w for w in items - named if len(w) >= 3 and not w[0].isdigit() and w.lower() != "the"}
    product = None if subject else _PRODUCT.search(clause)
    qualifies = product is not None and any(_HUMPS.match(w) for w in product.group("rest").split())
    if product and not qualifies and product.group("first") not in _ENGLISH_CAPS:
        code.add(product.group("first"))
    ban = _BAN_PHRASE.search(clause)
    if ban and not _PLACED.match(clause, ban.end()):  # "not allowed in logs" is a sink rule, not a ban
        code |= _code_names(clause)
    code |= {m.group(1) for m in _NO_NAME.finditer(clause) if m.group(1) in _code_names(clause)}
    for m in _AFTER_NEGATION.finditer(clause):
        for item in re.split(_SEP, m.group("list")):
            named = {n for n in _code_names(item) if n[0] == "." or not _ONE_CAPITAL.fullmatch(n)}
            code |= named
            word = item.strip("`.").lower()
            alone = m.start() == 0 and not clause[m.end() :].strip(" .")
            whole = alone and m.group("neg").lower() == "not"  # the clause is "not seaborn"
            named_by = m.group("verb") or m.group("neg").lower() == "no" or whole
            if not named and named_by and re.fullmatch(r"[a-z][\w-]{2,}", word):
                plain.add(word)  # "no axios", "never import lodash": found on import and dependency lines only
    return code, {p for p in plain - code if p not in _NOT_NAMES}


def _phrases_in(clause: str) -> set[str]:
    """Multi-word commands a clause says are out (matched whole, never word by word)."""
    m = _PHRASE_OUT.search(clause)
    return {m.group("phrase")} if m and not _ENGLISH_CAPS & set(m.group("phrase").title().split()) else set()


def _token(name: str) -> str:
    if name.startswith("."):  # a suffix (".module.css"): found at the end of a file name
        return re.escape(name) + r"(?![\w-])"
    if re.fullmatch(r"[A-Za-z_$][\w$]*", name):  # an identifier: also as a method (`x.toFixed(`)
        return r"(?<![\w$@/-])" + re.escape(name) + r"(?![\w-])"
    return r"(?<![\w.@/-])" + re.escape(name) + r"(?![\w-])"


def _phrase(words: str) -> str:
    return r"(?<![\w-])" + r"[ \t]+".join(re.escape(w) for w in words.split()) + r"(?![\w-])"


def _name_patterns(name: str) -> tuple[list[str], list[str]]:
    """(token patterns, names for import and manifest lines): a code-shaped name as a token and on
    those lines in any case ("Jackson-Databind" → `com.fasterxml.jackson.core:jackson-databind`); a
    capitalised product name too ("Redux" → `from 'react-redux'`); a `-py`/`-js` package by its
    stem on those lines only."""
    if re.fullmatch(r"[\w-]+\.js", name, re.I):  # `underscore.js`: the token as written, the package by its stem
        return [_token(name)], [name[:-3]]
    stem = _SUFFIX.sub("", name)
    if stem != name and "/" not in name:
        return [], [stem]
    if name.startswith("."):
        return [_token(name)], []
    return [_token(name)], [name]


def _packed(build: Callable[[Sequence[str]], str], words: Sequence[str]) -> list[str]:
    """One pattern for many words, split so that none is longer than a record may carry (a word
    too long for a pattern of its own is left out)."""
    chunks: list[list[str]] = []
    for word in words:
        if chunks and len(build([*chunks[-1], word])) <= MAX_PATTERN_LENGTH:
            chunks[-1].append(word)
        elif len(build([word])) <= MAX_PATTERN_LENGTH:
            chunks.append([word])
    return [build(chunk) for chunk in chunks]


def siblings(rule: str, name: str, banned: set[str]) -> tuple[list[str], list[str]]:
    """(suffixes, prefixes) that make `name` another name the rule says and does not ban:
    `date-fns-tz` beside a banned `date-fns` gives the suffix `-tz`; `heapless::Vec` beside a
    banned `Vec` the prefix `heapless::`."""
    lowered, banned_lower = name.lower(), {b.lower() for b in banned}
    suffixes, prefixes = [], []
    said = " ".join(c[: m.start()] if (m := _NEGATES.search(c)) else c for c in clauses(rule))  # not what it negates
    for word in {w.strip("`'\".,;:()") for w in re.findall(r"[\w@./+:-]+", said)}:
        low = word.lower()
        if low == lowered or low in banned_lower or len(word) > 100:
            continue
        if low.startswith(lowered) and re.match(r"[-_.:]+\w", low[len(lowered) :]):
            suffixes.append(word[len(name) :])
        elif low.endswith(lowered) and re.search(r"\w[-_.:]+$", low[: -len(lowered)]):
            prefixes.append(word[: -len(name)])
    return sorted(set(suffixes)), sorted(set(prefixes))


def _unless(suffixes: Sequence[str], prefixes: Sequence[str]) -> tuple[str, str]:
    """Lookarounds that leave the sibling names alone (in any case)."""
    before = "".join(f"(?<!{re.escape(p)})" for p in prefixes if len(p) <= 40)
    after = "".join(rf"(?![-_.:]{{1,3}}{_loose(s.lstrip('-_.:'))}(?![\w]))" for s in suffixes if len(s) <= 40)
    return before, after


_MAJOR = r"\d{0,2}"  # a major version in the package's name: `sqlite3`, `boto3`, `psycopg2` are sqlite, boto, psycopg


def import_line(*words: str, siblings: tuple[Sequence[str], Sequence[str]] = ((), ())) -> str:
    """A pattern for `word` on an import line: `import`, `from`, `require`, `#include`, `use`, `gem`,
    `pod`, a build dependency (`implementation(...)`), a Go import-block line (with or without an
    alias). Case is ignored and a separator in the name matches any (`Joda-Time` finds
    `org.joda.time`); `siblings` (suffixes, prefixes) are longer names left alone."""
    before, after = _unless(*siblings)
    name = r"(?<![\w])" + before + _loose(*words) + _MAJOR + after + r"(?![\w])"
    return (
        r"(?im:^[ \t]*(?:import|from|require|#include|using|use|gem|pod|implementation|api|compile"
        r"|testImplementation|runtimeOnly)\b[^\n]{0,200}?"
        + name
        + r"|^[ \t]*(?:[\w.]+[ \t]+)?\"[^\"\n]{0,200}?"
        + name
        + r"[^\"\n]{0,100}\"[ \t]*$)"
    )


def manifest_line(*words: str, siblings: tuple[Sequence[str], Sequence[str]] = ((), ())) -> str:
    """A pattern for `word` as a declared dependency: a manifest entry with a version (`"word":
    "^1.2"`, `word>=2.31`, `word = "1"`, `word = { version = ... }`) or build coordinates
    (`"com.example:word:1.0"`); `siblings` as for `import_line`."""
    before, after = _unless(*siblings)
    w = before + _loose(*words) + _MAJOR + after
    return (
        r"(?im:^[ \t]*[\"']?(?:@[\w.-]{1,100}/)?" + w + r"(?:\[[\w,]{0,100}\])?(?:[\"']?[ \t]*[=:][ \t]*[\"']?"
        r"(?:[\^~<>=*\d]|latest\b|workspace:|file:|git|npm:)|[ \t]*=[ \t]*\{|[ \t]*[<>=~!]=?[ \t]*\d)"
        r"|[\"'][\w.-]{0,100}:" + w + r"(?:[-_.][\w]{1,40})?:)"
    )


def _loose(*words: str) -> str:
    alternatives = [r"[-_.]?".join(re.escape(p) for p in re.split(r"[-_.]", w) if p) for w in words]
    return alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"


def banned_patterns(rule: str) -> list[str]:
    """Forbid patterns for the names `rule` bans (see the module doc); [] when it bans none."""
    allowed: set[str] = set()
    banned_code: set[str] = set()
    banned_words: set[str] = set()
    phrases: set[str] = set()
    star = False
    rule = normalised(rule)
    for clause in clauses(rule):
        if _NEGATES.search(clause) and not _EXCEPTION.search(clause):
            code, plain = _banned_in(clause)
            banned_code |= code
            banned_words |= plain
            phrases |= _phrases_in(clause)
            star = star or bool(_SELECT_STAR.search(clause))
        else:
            allowed |= _code_names(clause) | {w.lower() for w in re.findall(r"[\w@./+-]+", clause)}
    allowed_lower = {a.lower() for a in allowed}
    out: list[str] = []
    on_lines: list[str] = []
    for name in sorted(n for n in banned_code if n.lower() not in allowed_lower):
        tokens, names = _name_patterns(name)
        out += tokens
        on_lines += names
    on_lines += [w for w in sorted(banned_words - banned_code) if w.lower() not in allowed_lower]
    on_lines = list(dict.fromkeys(on_lines))
    banned = banned_code | banned_words
    kin = {w: siblings(rule, w, banned) for w in on_lines}
    alone = [w for w in on_lines if kin[w] == ([], [])]
    out += _packed(lambda ws: import_line(*ws), alone) + _packed(lambda ws: manifest_line(*ws), alone)
    for w in (w for w in on_lines if kin[w] != ([], [])):  # a pattern of its own, with its exceptions
        own = (import_line(w, siblings=kin[w]), manifest_line(w, siblings=kin[w]))
        out += [p for p in own if len(p) <= MAX_PATTERN_LENGTH]
    out += [_phrase(p) for p in sorted(phrases)]
    if star:
        out.append(r"(?i:\bselect[ \t]+(?:distinct[ \t]+)?(?:\w{1,40}\.)?\*)")
    return out
