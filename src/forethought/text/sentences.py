"""The one sentence splitter: every sentence is a verbatim slice of its input, with its offsets.

A sentence ends
- after a run of `.`, `!` or `?` followed by whitespace or the end of the text, so "Node.js",
  "3.5" and "e.g.," stay inside their sentence while "Done. Next" and "Really?! Yes" are two;
- at a newline (a line without punctuation is a sentence: chat turns and lists are written so);
- at the end of the text (trailing words without punctuation are a sentence).

Each sentence is trimmed of surrounding whitespace and empty ones are dropped, so evidence quoted
from a sentence is always found again in the text it came from. Splitting is one linear pass: a
long text without punctuation costs as much as reading it once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Sentence", "is_question", "sentences", "split_sentences"]

# Each punctuation run is matched once and whole, which keeps the pass linear; whether it ends
# the sentence is decided by the character after it.
_STOP = re.compile(r"[.!?]+|\n")


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a text: `text == source[start:end]`."""

    text: str
    start: int
    end: int


def split_sentences(text: str) -> list[Sentence]:
    """The sentences of `text` in order, each with its offsets (see the module docstring)."""
    found: list[Sentence] = []
    start = 0
    for stop in _STOP.finditer(text):
        if stop.group() == "\n":
            end, resume = stop.start(), stop.end()
        elif stop.end() == len(text) or text[stop.end()].isspace():
            end = resume = stop.end()
        else:
            continue  # "Node.js", "3.5", "wait...what": punctuation inside a word
        _add(text, start, end, found)
        start = resume
    _add(text, start, len(text), found)
    return found


def sentences(text: str) -> list[str]:
    """The sentences of `text` as strings, each a verbatim slice of it."""
    return [s.text for s in split_sentences(text)]


def _add(text: str, start: int, end: int, found: list[Sentence]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        found.append(Sentence(text[start:end], start, end))


def is_question(sentence: str) -> bool:
    """Whether a sentence asks (ends with a question mark, closing quotes and brackets aside)."""
    return sentence.rstrip(" )\"'`").endswith("?")
