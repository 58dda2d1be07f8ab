"""What the words alone say about a later statement against an earlier one: the signals the
relation stage's rule and the pair judge's features share (`pipeline/relate.py`,
`judge/pairs.py`), so both read "contrast", "a new value" and "a negation flip" the same way."""

from __future__ import annotations

import re

from forethought.text.identifiers import strong_terms
from forethought.text.words import words

__all__ = [
    "CONTRAST",
    "NEGATION",
    "amends_by_rule",
    "negation_flips",
    "new_value",
    "overlap",
    "shares_a_name",
    "word_overlap",
]

# Words that say a statement changes something said before ("instead", "no longer", "scratch that").
CONTRAST = re.compile(
    r"\b(?:instead|no\s+longer|any\s?more|from\s+now\s+on|going\s+forward|now|chang\w*|switch\w*|mov(?:e|ed|ing)\s+"
    r"(?:to|from|off)|replac\w*|supersed\w*|scratch|revert\w*|back\s+to|dropp?\w*|as\s+of)\b",
    re.I,
)
NEGATION = re.compile(r"\b(?:not|never|no|don't|doesn't|didn't|isn't|aren't|won't|can't|cannot|without)\b", re.I)
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)*\b")

# The rule's relatedness bars: word overlap, or embedding similarity, or a shared name with some words.
AMEND_OVERLAP = 0.4
AMEND_SIMILARITY = 0.7
NAMED_OVERLAP = 0.15


def overlap(a: set[str], b: set[str]) -> float:
    """Jaccard overlap of two word sets (1.0 for two empty ones)."""
    return len(a & b) / len(a | b) if a | b else 1.0


def word_overlap(old: str, new: str) -> float:
    return overlap(set(words(old)), set(words(new)))


def shares_a_name(old: str, new: str) -> bool:
    """Both name the same code-shaped thing (an identifier, a path, a package)."""
    return bool(strong_terms(old) & strong_terms(new))


def new_value(old: str, new: str) -> bool:
    """Both carry numbers and they differ (a limit, a version, a count changed)."""
    a, b = set(_NUMBER.findall(old)), set(_NUMBER.findall(new))
    return bool(a) and bool(b) and a != b


def negation_flips(old: str, new: str) -> bool:
    return bool(NEGATION.search(old)) != bool(NEGATION.search(new))


def amends_by_rule(old: str, new: str, similarity: float) -> bool:
    """The rule without a model: `new` is related to `old` (overlap, similarity, or a shared name
    with some common words), is not the same statement, and says it changes it or gives a new value."""
    if " ".join(old.casefold().split()) == " ".join(new.casefold().split()):
        return False
    shared = word_overlap(old, new)
    related = (
        shared >= AMEND_OVERLAP
        or similarity >= AMEND_SIMILARITY
        or (shares_a_name(old, new) and shared >= NAMED_OVERLAP)
    )
    return related and (bool(CONTRAST.search(new)) or new_value(old, new))
