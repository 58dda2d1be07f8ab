"""Words: tokens, stop words, two light stemmers, the salient words of a text, compact word lists.

There are two stemmers because they disagree (`agencies` is `agency` to one, `agenci` to the other)
and each was measured where it is used: `stem` matches a query's keywords against a record's
statement in recall; `word_key` matches a task against a record in the brief, and a draft's clause
against a failed action in check. Merging them would change what those match.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "GENERIC_WORDS",
    "STOPWORDS",
    "salient_words",
    "stem",
    "vocabulary",
    "word_key",
    "word_keys",
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

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_VOWEL = re.compile(r"[aeiouy]")


def words(text: str) -> list[str]:
    """Lower-cased word tokens: runs of letters and digits (an underscore separates)."""
    return [w.lower() for w in _WORD.findall(text)]


def vocabulary(text: str) -> frozenset[str]:
    """A vocabulary written as whitespace-separated words (keeps long word lists compact)."""
    return frozenset(text.split())


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


def word_key(word: str) -> str:
    """A light stemmer for matching: `disconnecting`/`disconnections` → `disconnect`,
    `cookies`/`cookie` → `cooki`, `headphones` → `headphon`. Not linguistics; only consistency."""
    w = word.lower()
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies"):
        w = w[:-3] + "i"
    elif w.endswith("es") and w[:-2].endswith(("s", "x", "z", "ch", "sh")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ations", "ation", "ments", "ment", "ings", "ing", "ions", "ion", "ed", "ly"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[: -len(suffix)]
            break
    if len(w) > 4 and w[-1] == w[-2] and w[-1] not in "ls":
        w = w[:-1]  # stopped → stopp → stop
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w[:-1] + "i" if len(w) > 3 and w.endswith("y") else w


def word_keys(text: str) -> frozenset[str]:
    """The `word_key` of each whitespace-separated word of `text` (a word list written as text)."""
    return frozenset(word_key(w) for w in text.split())


# Words too common in tasks and rules to show that a record is about the task.
GENERIC_WORDS = word_keys(
    """add make build create change update fix new use using need want code file files feature thing way work
    something anything please help task today now good better best sure always never every all must should
    data value values user users system project team person people time first next last write read show
    keep run running set get give take try tried check issue problem question answer"""
)


def salient_words(text: str) -> dict[str, str]:
    """Content words by stem (`word_key` → the word as first written, lower-cased): stopwords,
    generic task words, numbers and 1-2 letter words left out."""
    found = {word_key(w): w for w in reversed(words(text)) if w not in STOPWORDS and len(w) > 2 and not w.isdigit()}
    return {key: word for key, word in found.items() if key not in GENERIC_WORDS}
