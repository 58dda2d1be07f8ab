"""Text analysis shared by indexing and querying: words, identifiers, names, FTS queries.

Embeddings blur exact identifiers (`PrismaClient`, `X-ApexCart-CSRF`) into their neighbours, so
identifiers and proper names are also kept as exact *terms*; and because the keyword index splits
on punctuation but not on case, camelCase identifiers are indexed with their parts spelled out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from forethought.recall.dates import Period, read_periods

__all__ = [
    "STOPWORDS",
    "QueryAnalysis",
    "analyze",
    "focus_in",
    "identifier_parts",
    "match_words",
    "search_text",
    "stem",
    "terms",
    "words",
]

STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me
    more most my myself no nor not now of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves also ever yet s t don didn doesn isn wasn
    let us get got like really yeah oh hey hi okay ok well much many one
    """.split()  # noqa: SIM905 - a word list reads better as text
)
# Capitalised words that start sentences or questions and name nothing.
_NOT_NAMES = STOPWORDS | frozenset(
    ["yes", "thanks", "thank", "sure", "wow", "great", "awesome", "cool", "nice", "good", "hello", "sounds"]
)

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/\-]*[A-Za-z0-9]|[A-Za-z0-9]")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*\b")


def words(text: str) -> list[str]:
    """Lower-cased word tokens."""
    return [w.lower() for w in _WORD.findall(text)]


_VOWEL = re.compile(r"[aeiouy]")


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A light English stemmer, for matching words rather than for linguistics: plural -s, -ing,
    -ed, -ly and a final -e go, so `paints`, `painting`, `painted` → `paint` and `hike`, `hikes`,
    `hiking` → `hik`. Short words, words without a vowel left and numbers stay as they are."""
    w = word.lower()
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed", "ly"):
        base = w[: -len(suffix)]
        if w.endswith(suffix) and len(base) >= 3 and _VOWEL.search(base):
            w = base
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
                w = w[:-1]  # running → runn → run; but falling → fall, passing → pass
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def _is_identifier(token: str) -> bool:
    """Code-like tokens: camelCase, snake_case, kebab-Case with capitals, dotted, digits in words."""
    if len(token) < 3 or (token.isalpha() and token[1:].islower()):
        return False  # the common case, a plain or capitalised word, decided without a regex
    has_lower_upper = re.search(r"[a-z][A-Z]", token) is not None
    has_inner_caps = re.fullmatch(r"[A-Z]{2,}[a-z0-9]*", token) is not None and not token.isdigit()
    has_joiner = any(c in token for c in "_./:") or ("-" in token and any(c.isupper() for c in token))
    has_mixed_digits = bool(re.search(r"[A-Za-z]", token)) and bool(re.search(r"\d", token))
    return has_lower_upper or has_inner_caps or has_joiner or has_mixed_digits


def identifier_parts(token: str) -> list[str]:
    """`X-ApexCart-CSRF` → [x, apex, cart, csrf]; `prisma_client.v2` → [prisma, client, v, 2]."""
    parts: list[str] = []
    for chunk in re.split(r"[_.:/\-]+", token):
        parts.extend(p.lower() for p in _CAMEL.findall(chunk))
    return [p for p in parts if p]


def _identifiers(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text) if _is_identifier(t)]


def terms(text: str) -> list[str]:
    """Exact-match terms: identifiers as written (lower-cased) and capitalised names."""
    found: list[str] = []
    for ident in _identifiers(text):
        found.append(ident.lower().rstrip(".:/-"))
    for name in _NAME.findall(text):
        lowered = name.lower()
        if lowered not in _NOT_NAMES and len(lowered) > 2:
            found.append(lowered)
    seen: dict[str, None] = {}
    for term in found:
        seen.setdefault(term, None)
    return list(seen)


def search_text(text: str) -> str:
    """Extra keyword-index text: identifier parts spelled out, so `prisma client` finds
    `PrismaClient` (the tokenizer alone would index only `prismaclient`)."""
    extra: list[str] = []
    for ident in _identifiers(text):
        parts = identifier_parts(ident)
        if len(parts) > 1:
            extra.append(" ".join(parts))
    return " ".join(extra)


def match_words(text: str) -> set[str]:
    """The stemmed words of `text`, with identifiers also in parts (`PrismaClient` gives
    `prismaclient`, `prisma` and `client`): what a query's keywords are matched against."""
    found = {stem(w) for w in words(text)}
    for ident in _identifiers(text):
        found.update(stem(p) for p in identifier_parts(ident))
    return found


@lru_cache(maxsize=1024)
def _roots(focus: frozenset[str]) -> re.Pattern[str]:
    """Any of `focus` as written in a text (a -y stem by its root: `agency` is in `agencies`)."""
    roots = sorted({w[:-1] if w.endswith("y") and len(w) > 3 else w for w in focus}, key=len, reverse=True)
    return re.compile("|".join(re.escape(r) for r in roots), re.IGNORECASE)


def _in_token(ch: str) -> bool:
    return ch.isalnum() or ch in "_.:/-"


def focus_in(focus: frozenset[str], text: str) -> set[str]:
    """Which of the stemmed words `focus` `text` contains: `match_words(text) & focus`, but only
    the tokens where a regex finds a focus root are stemmed, so a long text costs little."""
    if not focus:
        return set()
    found: set[str] = set()
    seen: set[str] = set()
    for match in _roots(focus).finditer(text):
        start, end = match.start(), match.end()
        while start > 0 and _in_token(text[start - 1]):
            start -= 1
        while end < len(text) and _in_token(text[end]):
            end += 1
        token = text[start:end]
        if token not in seen:
            seen.add(token)
            found |= match_words(token)
    return found & focus


@dataclass(frozen=True)
class QueryAnalysis:
    """What recall reads from a query."""

    terms: tuple[str, ...]  # identifiers and names, for exact matching
    keywords: tuple[str, ...]  # content words and identifier parts, lower-cased
    periods: tuple[Period, ...] = ()  # calendar dates the query names
    # Keywords outside those dates, stemmed: what a record's own statement should say.
    focus: frozenset[str] = frozenset()


def _keywords(text: str) -> list[str]:
    tokens: list[str] = []
    for word in words(text):
        if word not in STOPWORDS and (len(word) > 1 or word.isdigit()):
            tokens.append(word)
    for ident in _identifiers(text):
        tokens.extend(p for p in identifier_parts(ident) if p not in STOPWORDS)
    return list(dict.fromkeys(t for t in tokens if t))


def analyze(query: str) -> QueryAnalysis:
    keywords = _keywords(query)[:64]
    dates, rest = read_periods(query)
    return QueryAnalysis(
        terms=tuple(terms(query)),
        keywords=tuple(keywords),
        periods=tuple(dates),
        focus=frozenset(stem(k) for k in _keywords(rest)),
    )
