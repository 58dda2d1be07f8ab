"""Text helpers for the career rules: clause prefixes, hedges, negations and questions.

Every span returned here is a slice of the text it was given, so evidence quotes stay verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pydantic import BaseModel

__all__ = [
    "HEDGE",
    "NEGATION",
    "Found",
    "about_someone_else",
    "blocked",
    "clause_prefix",
    "is_question_clause",
]


@dataclass(frozen=True)
class Found:
    """One fact a rule found in a sentence, before it becomes a candidate with evidence."""

    kind: str
    attributes: BaseModel
    statement: str
    confidence: float
    tags: tuple[str, ...] = field(default=())


# Where a clause starts: after a comma/semicolon/colon/dash, or before a contrasting conjunction.
_WINDOW = 300
_CLAUSE_START = re.compile(
    r"[,;:—–]|\s-\s|\b(?:but|although|though|whereas|however|so|because|since|and\s+(?=i\b|i'm|i've|my\b))\b", re.I
)
# Words that make a statement a plan, a wish, a condition or a question rather than a fact.
HEDGE = re.compile(
    r"\b(?:might|may|maybe|could|would|should|will|going\s+to|gonna|plan(?:ning)?\s+(?:to|on)|thinking|"
    r"considering|want(?:ed)?\s+to|wanna|hope|hoping|if|whether|wish|unless|in\s+case|what\s+if|do\s+you\s+think)\b"
    r"|'ll\b|'d\b(?!\s+say\b)",  # "I'd say I know SQL pretty well" is a self-assessment, not a hedge
    re.I,
)
NEGATION = re.compile(
    r"\b(?:not|never|haven't|hasn't|have\s+not|didn't|did\s+not|don't|do\s+not|doesn't|no\s+longer|yet\s+to)\b", re.I
)
# Someone else as the clause's subject: a relation of the speaker's, or a third person; their news
# is never the student's own fact ("my roommate got rejected from Globex").
THIRD_PARTY = re.compile(
    r"(?i:\b(?:my|our|a|his|her|their)\s+(?:\w+\s+)?(?:room-?mate|flat-?mate|house-?mate|friend|buddy|sister|brother|"
    r"cousin|class-?mate|colleague|co-?worker|partner|boyfriend|girlfriend|husband|wife|mom|mum|dad|son|daughter|"
    r"neighbou?r|peer|lab-?mate|team-?mate|senior|junior)s?\b"
    r"|^\W*(?:he|she|they)\b|\b(?:he|she|they)\s+(?:just\s+|also\s+)?(?:got|was|were|has|had|applied|is|are)\b)"
    r"|^\W*[A-Z][a-z]+\s+(?:just\s+|also\s+)?(?:got|was|has|had)\b",  # a name as the subject: "Priya got ..."
)
FIRST_PERSON = re.compile(r"\b(?:i|me|i'm|i've|i'd|myself)\b", re.I)
_CLAUSE_END = re.compile(r"[,;:.!?—–]|\s-\s|\b(?:but|although|though|whereas|however|because|since)\b", re.I)
_QUESTION_START = re.compile(
    r"^\W*(?:do|does|did|should|can|could|would|will|is|are|am|was|were|what|how|which|who|why|when|where|any)\b",
    re.I,
)


def clause_prefix(sentence: str, at: int) -> str:
    """The words of `sentence` before position `at`, back to the start of their clause."""
    before = sentence[max(0, at - _WINDOW) : at]  # a clause is never longer than this; keeps long input linear
    starts = [m.end() for m in _CLAUSE_START.finditer(before)]
    return before[starts[-1] if starts else 0 :]


def is_question_clause(sentence: str, at: int) -> bool:
    """True when the clause holding position `at` is a question ("Do you think I know SQL?")."""
    prefix = clause_prefix(sentence, at)
    rest = sentence[at:]
    end = re.search(r"[.!?;]", rest)
    closes_with_question = end is not None and end.group(0) == "?"
    return closes_with_question and bool(_QUESTION_START.search(prefix))


def blocked(sentence: str, at: int, *, negated_ok: bool = False) -> bool:
    """True when the clause holding position `at` is a plan, wish, condition or question, or is
    negated (unless the rule's own wording carries the negation: `negated_ok`)."""
    prefix = clause_prefix(sentence, at)
    if HEDGE.search(prefix) or is_question_clause(sentence, at) or _someone_else(sentence, at, prefix):
        return True
    return not negated_ok and bool(NEGATION.search(prefix))


def about_someone_else(sentence: str, at: int) -> bool:
    """True when the clause holding position `at` is about another person (a roommate, a friend,
    "she") and the speaker is nowhere in it: their news is not the student's fact."""
    return _someone_else(sentence, at, clause_prefix(sentence, at))


def _someone_else(sentence: str, at: int, prefix: str) -> bool:
    end = _CLAUSE_END.search(sentence, at)
    clause = prefix + sentence[at : end.start() if end else len(sentence)]
    return bool(THIRD_PARTY.search(prefix) or THIRD_PARTY.match(clause)) and not FIRST_PERSON.search(clause)
