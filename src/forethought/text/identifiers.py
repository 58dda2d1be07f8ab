"""Identifiers and names: what embeddings blur, kept as exact terms and spelled out in parts.

Embeddings blur exact identifiers (`PrismaClient`, `X-ApexCart-CSRF`) into their neighbours, so
identifiers and proper names are also kept as exact *terms*; and because the keyword index splits
on punctuation but not on case, camelCase identifiers are indexed with their parts spelled out.

Two readings of "a term": `terms` feeds recall's exact-term index and counts any capitalised word
that is not a stop word or a greeting; `strong_terms` is the brief's evidence that a record is
about a task and counts a capitalised word only mid-sentence, and identifiers by a looser shape
(`$store`, `@admin`). Merging them would change what recall indexes and what the brief selects.
"""

from __future__ import annotations

import re
from functools import lru_cache

from forethought.text.words import STOPWORDS, stem, words

__all__ = ["focus_in", "identifier_parts", "identifiers", "match_words", "search_text", "strong_terms", "terms"]

# Capitalised words that start sentences or questions and name nothing.
_NOT_NAMES = STOPWORDS | frozenset(
    ["yes", "thanks", "thank", "sure", "wow", "great", "awesome", "cool", "nice", "good", "hello", "sounds"]
)

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/\-]*[A-Za-z0-9]|[A-Za-z0-9]")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*\b")


def _is_identifier(token: str) -> bool:
    """Code-like tokens: camelCase, snake_case, kebab-Case with capitals, dotted, digits in words."""
    if len(token) < 3 or (token.isalpha() and token[1:].islower()):
        return False  # the common case, a plain or capitalised word, decided without a regex
    has_lower_upper = re.search(r"[a-z][A-Z]", token) is not None
    has_inner_caps = re.fullmatch(r"[A-Z]{2,}[a-z0-9]*", token) is not None and not token.isdigit()
    has_joiner = any(c in token for c in "_./:") or ("-" in token and any(c.isupper() for c in token))
    has_mixed_digits = bool(re.search(r"[A-Za-z]", token)) and bool(re.search(r"\d", token))
    return has_lower_upper or has_inner_caps or has_joiner or has_mixed_digits


def identifiers(text: str) -> list[str]:
    """The code-like tokens of `text`, as written, in order."""
    return [t for t in _TOKEN.findall(text) if _is_identifier(t)]


def identifier_parts(token: str) -> list[str]:
    """`X-ApexCart-CSRF` → [x, apex, cart, csrf]; `prisma_client.v2` → [prisma, client, v, 2]."""
    parts: list[str] = []
    for chunk in re.split(r"[_.:/\-]+", token):
        parts.extend(p.lower() for p in _CAMEL.findall(chunk))
    return [p for p in parts if p]


def terms(text: str) -> list[str]:
    """Exact-match terms: identifiers as written (lower-cased) and capitalised names."""
    found: list[str] = []
    for ident in identifiers(text):
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
    for ident in identifiers(text):
        parts = identifier_parts(ident)
        if len(parts) > 1:
            extra.append(" ".join(parts))
    return " ".join(extra)


def match_words(text: str) -> set[str]:
    """The stemmed words of `text`, with identifiers also in parts (`PrismaClient` gives
    `prismaclient`, `prisma` and `client`): what a query's keywords are matched against."""
    found = {stem(w) for w in words(text)}
    for ident in identifiers(text):
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
    return set(_focus_in(focus, text))


@lru_cache(maxsize=4096)  # recall reads the same statements for the same query more than once (a check's two)
def _focus_in(focus: frozenset[str], text: str) -> frozenset[str]:
    if not focus:
        return frozenset()
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
    return frozenset(found & focus)


_STRONG_IDENT = re.compile(r"[A-Za-z_$@][\w$@.:/-]*\w")
_CODE_LIKE = re.compile(r"[a-z0-9][A-Z]|[_./:$@]|[A-Za-z]\d|\d[A-Za-z]|-.*[A-Z]|[A-Z].*-")
_MID_NAME = re.compile(r"\b[A-Z][a-zA-Z]+\b")
_SENTENCE_START = ".!?:;\n-*•>#)|"


def strong_terms(text: str) -> set[str]:
    """Identifiers (camelCase, snake_case, dotted, paths, digits in a word, `X-App-CSRF`) and names
    capitalised mid-sentence."""
    found: set[str] = {
        t.rstrip(".:/-").lower() for t in _STRONG_IDENT.findall(text) if _CODE_LIKE.search(t.rstrip(".:/-"))
    }
    for match in _MID_NAME.finditer(text):
        before = text[max(0, match.start() - 8) : match.start()].rstrip(" \t\"'(`*_")
        name = match.group(0).lower()
        if before and before[-1] not in _SENTENCE_START and name not in STOPWORDS and len(name) > 2:
            found.add(name)  # capitalised mid-sentence: a name, not a sentence's first word
    return found
