"""Cutting coding-agent turns into sentences, and recognising sentences that are not memory.

Sentences are slices of the turn's text, so every quote taken from one is verbatim. Fenced code
blocks, shell commands and quoted output are skipped: memory comes from what people said, and a
code sample is the thing a rule is checked against, not a rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from forethought.text.sentences import is_question, split_sentences

__all__ = [
    "body_of",
    "is_agent_chatter",
    "is_deferred",
    "is_question",
    "is_transient",
    "segments",
    "sentences",
]


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
# Of the shared splitter's boundaries, only those before a capital, quote or bracket, and not
# after "e.g." and the like, end a sentence in a coding turn: "e.g. Redis" and "run it. then" stay whole.
_OPENS_SENTENCE = re.compile(r"[A-Z\"'`(\[@_]")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|approx|cf)\.)$", re.I)


def _pieces(line: str) -> Iterator[tuple[int, int]]:
    """Sentence spans within one line, after any list bullet, outer whitespace trimmed."""
    bullet = _BULLET.match(line)
    cursor = bullet.end() if bullet else 0
    piece: tuple[int, int] | None = None
    for sentence in split_sentences(line[cursor:]):
        start, end = cursor + sentence.start, cursor + sentence.end
        if piece is None:
            piece = (start, end)
        elif _OPENS_SENTENCE.match(sentence.text) and not _ABBREVIATION.search(line[piece[0] : piece[1]]):
            yield piece
            piece = (start, end)
        else:
            piece = (piece[0], end)  # not a boundary here: the sentence goes on
    if piece is not None:
        yield piece


def _spans(text: str, *, prose_only: bool) -> Iterator[str]:
    in_fence = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            in_fence = not in_fence
            continue
        if not stripped or (prose_only and (in_fence or stripped.startswith(("$ ", ">", "#!", "//")))):
            continue
        for a, b in _pieces(line):
            chunk = line[a:b].strip()
            if len(chunk) >= 3:
                yield chunk


def sentences(text: str) -> Iterator[str]:
    """The sentences of a turn, outside code fences, shell lines and quoted output."""
    return _spans(text, prose_only=True)


def segments(text: str) -> Iterator[str]:
    """Every sentence or code line of a draft (code included: a draft's code can repeat a mistake)."""
    return _spans(text, prose_only=False)


# Leading discourse words that carry no content ("OK, ...", "Also: ...", "No, ...").
_MARKER = re.compile(
    r"^(?:ok(?:ay)?|so|also|and|but|right|alright|great|good|yes|yeah|yep|no|nope|well|btw|fyi|note|"
    r"thanks|thank you|perfect|agreed|ah|oh|context|background|heads up|for the record|important)\b[\s,:;.!—–-]*",
    re.I,
)


def body_of(sentence: str) -> str:
    """The sentence without leading discourse markers ("Also, never ..." -> "never ...")."""
    body = sentence.strip()
    for _ in range(4):
        stripped = _MARKER.sub("", body, count=1)
        if stripped == body or not stripped:
            break
        body = stripped
    return body


_DEFERRED = re.compile(
    r"\b(?:not\s+(?:in|for)\s+this\s+(?:sprint|release|pr|quarter|iteration|milestone)|"
    r"next\s+(?:sprint|quarter|release|iteration)|some\s?day|eventually|down\s+the\s+road|at\s+some\s+point|"
    r"maybe|might|could|perhaps|possibly|revisit|longer\s+term|parking\s+lot|nice\s+to\s+have|todo|"
    r"not\s+sure|open\s+question|if\s+we\s+have\s+time|one\s+day)\b",
    re.I,
)
_TRANSIENT = re.compile(
    r"\b(?:I'?m|I\s+am|we'?re|we\s+are)\s+(?:on|currently\s+on)\s+(?:branch|node|python|a\s+branch|the\s+\S+\s+branch)\b"
    r"|\b(?:I'?m|I\s+am)\s+on\s+\S+\s+\d"
    r"|\bon\s+my\s+(?:machine|laptop|end|box)\b|\bmy\s+(?:local|laptop|machine|browser|branch)\b"
    r"|(?<![\w-])local(?:ly)?(?![\w-])|\bright\s+now\b|\bjust\s+now\b|\bfor\s+now\b|\btoday\b"
    r"|\bthis\s+(?:morning|afternoon|evening)\b|\btemporar(?:y|ily)\b|\bWIP\b"
    r"|\buntil\s+\w+\s+(?:signs?\s+off|is\s+done|lands|ships|merges)\b",
    re.I,
)
# What an agent says about its own work: plans, progress, acknowledgements. Not memory.
_AGENT_CHATTER = re.compile(
    r"^(?:I'?ll|I\s+will|I'?m\s+going\s+to|I\s+am\s+going\s+to|let\s+me|I\s+can|I\s+could|I'?ve|I\s+have|"
    r"I\s+(?:added|updated|created|removed|fixed|changed|moved|ran|installed|opened|wrote|switched)|"
    r"done|fixed|added|updated|created|switching|switched|ok(?:ay)?|understood|got\s+it|sure|here'?s|"
    r"sounds\s+good|will\s+do|on\s+it|makes\s+sense|that\s+makes\s+sense|the\s+simplest\s+way|"
    r"a\s+simple\s+option|options?:|one\s+option)\b",
    re.I,
)


def is_deferred(sentence: str) -> bool:
    return _DEFERRED.search(sentence) is not None


def is_transient(sentence: str) -> bool:
    return _TRANSIENT.search(sentence) is not None


# "The route now returns ..." from an agent reports a change it just made.
_NOW = re.compile(r"\b(?:now|already)\b(?!\s+on\b)", re.I)


def is_agent_chatter(sentence: str) -> bool:
    return _AGENT_CHATTER.match(sentence.strip()) is not None or _NOW.search(sentence) is not None
