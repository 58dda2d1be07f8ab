"""Text normalisation for matching evidence quotes against session turns.

A quote is "verbatim" when it matches a turn after both go through `normalize`, which forgives
what copying text between a chat, a model and a form changes but never what it means:

1. Unicode NFKC (full-width letters, ligatures, non-breaking spaces; "…" becomes "...");
   invisible format characters (zero-width space, soft hyphen, BOM) are removed;
2. quote folding (‘ ’ ‚ ‛ ′ → ', “ ” „ ‟ ″ → "), dash folding (‐ ‑ ‒ – — ― − → -);
3. markdown markers stripped: `**`, `__`, backticks, `[text](url)` → text, and per line a leading
   `>`, `#` heading marker or list bullet (`-`, `*`, `+`, `•`, `1.`, `1)`);
4. whitespace collapsed to single spaces and trimmed; case folded.

Steps 1-2 alone are `fold`, the form the detectors also scan so that a secret written with
full-width characters or zero-width spaces is still found. Beside quote matching: `similarity`
(token Jaccard, for near-duplicate statements) and `related_clauses` (the clauses of quotes that
share a content word with a statement).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = ["MIN_FREE_WORDS", "find_quote", "fold", "normalize", "quote_in", "related_clauses", "similarity", "tokens"]

# Quotes of fewer words than this must match on word boundaries ("Java" is not in "Javascript").
MIN_FREE_WORDS = 3

_FOLD = str.maketrans(
    {
        **dict.fromkeys("‘’‚‛′", "'"),
        **dict.fromkeys("“”„‟″", '"'),
        **dict.fromkeys("‐‑‒–—―−", "-"),
        "…": "...",
    }
)

_LINK = re.compile(r"!?\[([^\]\n]{0,500})\]\([^)\s]{0,2000}\)")
_EMPHASIS = re.compile(r"\*\*|__|`+")
_LINE_MARKER = re.compile(r"^[ \t]*(?:(?:>[ \t]*)+|#{1,6}[ \t]+|[-*+•][ \t]+|\d{1,3}[.)][ \t]+)+", re.M)
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"\w+")
_EDGE_PUNCT = " .,;:!?\"'"


def _strip_format_chars(text: str) -> str:
    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def fold(text: str) -> str:
    """NFKC, format characters removed, quotes, dashes and ellipses folded; case and layout kept."""
    # Folded before and after NFKC: NFKC turns "″" into two primes, which then fold to "''".
    return _strip_format_chars(unicodedata.normalize("NFKC", text.translate(_FOLD))).translate(_FOLD)


def normalize(text: str) -> str:
    """The matching form of `text` (see the module docstring for the steps, in order)."""
    text = fold(text)
    text = _LINK.sub(r"\1", text)
    text = _EMPHASIS.sub("", text)
    text = _LINE_MARKER.sub("", text)
    return _SPACE.sub(" ", text).strip().casefold()


def tokens(text: str) -> list[str]:
    """The words of the normalised text."""
    return _WORD.findall(normalize(text))


def _at_word_boundaries(haystack: str, start: int, end: int) -> bool:
    before_ok = start == 0 or not (haystack[start - 1].isalnum() and haystack[start].isalnum())
    after_ok = end == len(haystack) or not (haystack[end - 1].isalnum() and haystack[end].isalnum())
    return before_ok and after_ok


def quote_in(needle: str, haystack: str) -> bool:
    """Whether normalised `needle` occurs in normalised `haystack`.

    Both must already be normalised. Punctuation at the quote's edges is ignored ("I prefer tea."
    matches "I prefer tea!"). A quote of fewer than MIN_FREE_WORDS words must start and end on word
    boundaries; a longer one may start or end inside a word (an extractor that trimmed a quote).
    """
    needle = needle.strip(_EDGE_PUNCT)
    if not needle:
        return False
    if len(_WORD.findall(needle)) >= MIN_FREE_WORDS:
        return needle in haystack
    start = haystack.find(needle)
    while start != -1:
        if _at_word_boundaries(haystack, start, start + len(needle)):
            return True
        start = haystack.find(needle, start + 1)
    return False


def find_quote(quote: str, turns: Sequence[str], prefer: int | None = None) -> int | None:
    """The position in `turns` (normalised texts) of the turn that contains `quote`, or None.

    `prefer` is tried first (the turn an extractor said the quote came from), then every turn in order.
    """
    needle = normalize(quote)
    if prefer is not None and 0 <= prefer < len(turns) and quote_in(needle, turns[prefer]):
        return prefer
    for position, text in enumerate(turns):
        if quote_in(needle, text):
            return position
    return None


def similarity(a: str, b: str) -> float:
    """Token Jaccard of two texts after normalisation: 1.0 for the same words, 0.0 for none shared
    (and for two texts without words)."""
    wa, wb = set(tokens(a)), set(tokens(b))
    return len(wa & wb) / len(wa | wb) if wa | wb else 0.0


_CLAUSE = re.compile(r"[.!?;\n]+")
_CONTENT_WORD = re.compile(r"\w{4,}")


def related_clauses(statement: str, quotes: Sequence[str]) -> list[str]:
    """The clauses (split at . ! ? ; and newlines) of `quotes` that share a word of four or more
    letters with `statement`: the part of a quote a statement was drawn from."""
    words = set(_CONTENT_WORD.findall(normalize(statement)))
    return [c for q in quotes for c in _CLAUSE.split(q) if words & set(_CONTENT_WORD.findall(normalize(c)))]
