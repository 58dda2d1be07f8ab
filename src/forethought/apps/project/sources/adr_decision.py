"""What an ADR decided: the passages to quote, found by the template's own headings.

In order, the first that finds something wins:
1. a top-level decision section (`## Decision`, `## Decision Outcome`, `## Chosen option`...):
   its decision sentence, or one passage per rule when it is a short bullet list (2 to 6);
2. two or more sub-decisions: `### Decision` headings or `**Decision**:` paragraphs (one each,
   at most 6), outside the alternatives (where "Decision: Rejected." judges an alternative);
3. a Y-statement ("In the context of ..., facing ..., we decided for ...");
4. a summary section (`## What`, `## Summary`, `## Proposal`...): its decision sentence;
5. a single sub-decision;
6. a `## How` section: its first "we will"-like sentence, else its first sentence;
7. the first prose sentence of the document after its header.

A decision sentence is, in the section's first paragraph, the first with decision wording ("we
will", "we decided", "decision to", "chosen option") or else the first sentence; one ending in a
colon ("We will:") runs on through the next paragraph or item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from forethought.apps.project.sources.markdown import Block, Heading, blocks, plain, sentences

__all__ = ["MAX_QUOTE", "Span", "decision_spans"]

MAX_QUOTE = 600  # characters of a quote; a longer sentence is cut at a word boundary
MAX_RULES = 6  # passages from one bullet list or one set of sub-decisions

_DECISION = re.compile(
    r"(?:\d+[.)]?\s*)?(?:the |our |final )?(?:decisions?(?! drivers| criteria| makers| date| status| log)"
    r"(?: outcome| made| taken)?|chosen option|resolution|outcome)\b",
    re.I,
)
_SUMMARY = re.compile(
    r"(?:\d+[.)]?\s*)?(?:what|summary|tl;?dr|proposal|proposed solution|solution|recommendation|abstract)\s*$", re.I
)
_HOW = re.compile(r"(?:\d+[.)]?\s*)?(?:how|implementation|approach|proposed design|design)\s*$", re.I)
_ASIDE = re.compile(r"alternative|considered options?|options considered|pros and cons|rejected|other options", re.I)
_LABEL = re.compile(r"(?:\*\*|__)?decision(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*", re.I)
_NOT_TAKEN = re.compile(r"(?:\*\*|__)?\s*(?:rejected|deferred|declined|not\b|n/a|tbd)", re.I)
_MARKER = re.compile(
    r"\b(?:we|I)\s+(?:will|shall|are going to|(?:have\s+)?decided|(?:have\s+)?agreed|(?:have\s+)?chosen|chose|"
    r"choose|adopt|are adopting|recommend|propose|opt(?:ed)?)\b|\bwe'll\b|\bdecision (?:is|was) to\b|"
    r"\bdecided to\b|\bdecision to\b|\bchosen option\b|\bwill (?:use|adopt|be used)\b",
    re.I,
)
_REASONS = re.compile(
    r"\b(?:because|reasons?|since|benefits?|why|pros|cons|following (?:options|alternatives))\b", re.I
)


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _Section:
    heading: Heading
    direct_end: int  # before its first sub-heading
    end: int  # before the next heading of its level or above
    aside: bool  # in (or is) an alternatives section


def decision_spans(
    text: str, heads: list[Heading], *, title: Heading | None, split_level: int, body: int, after: int
) -> list[Span]:
    """The passages of `text` that state its decision (see the module docstring); `heads` are its
    headings, `title` the one that is its title, `split_level` the level its sections are at,
    `body` where the text after any front matter starts, `after` where its first section starts."""
    sections = _sections(text, heads)
    every = blocks(text, body, len(text))
    top = [s for s in sections if s.heading.level <= split_level and not s.aside and s.heading is not title]
    for section in top:
        if _DECISION.match(section.heading.title) and (found := _from_decision(text, section)):
            return found
    nested = [s for s in sections if s not in top and not s.aside and _DECISION.match(s.heading.title)]
    subs = [main for s in nested if (main := _main(text, s.heading.body, s.direct_end)) is not None]
    subs = sorted(subs + _labelled(text, sections, every), key=lambda s: s.start)
    if len(subs) >= 2:
        return subs[:MAX_RULES]
    if y_statement := _y_statement(text, every):
        return [y_statement]
    for section in top:
        if _SUMMARY.match(section.heading.title) and (summary := _main(text, section.heading.body, section.end)):
            return [summary]
    if subs:
        return subs
    for section in top:
        if _HOW.match(section.heading.title) and (how := _main(text, section.heading.body, section.end, anywhere=True)):
            return [how]
    for section in top:
        if not section.aside and (first := _main(text, section.heading.body, section.end)):
            return [first]
    last = _main(text, after, len(text))
    return [last] if last else []


def _sections(text: str, heads: list[Heading]) -> list[_Section]:
    found: list[_Section] = []
    for i, heading in enumerate(heads):
        later = heads[i + 1 :]
        end = next((h.start for h in later if h.level <= heading.level), len(text))
        direct_end = later[0].start if later else len(text)
        parents = [s for s in found if s.heading.start < heading.start < s.end and s.heading.level < heading.level]
        aside = bool(_ASIDE.search(heading.title)) or any(p.aside for p in parents)
        found.append(_Section(heading, min(direct_end, end), end, aside))
    return found


def _from_decision(text: str, section: _Section) -> list[Span]:
    """A decision section: one passage per rule of a short bullet list, else its decision sentence."""
    found = blocks(text, section.heading.body, section.direct_end)
    items = [b for b in found if b.item]
    if items:
        indent = min(b.indent for b in items)
        rules = [b for b in items if b.indent == indent]
        intro = [b for b in found if not b.item]
        if (
            2 <= len(rules) <= MAX_RULES
            and all(b.end <= rules[0].start for b in intro)
            and len(intro) <= 1
            and not (intro and (len(plain(text[intro[0].start : intro[0].end])) > 160 or _REASONS.search(
                text[intro[0].start : intro[0].end])))
            and all(len(text[b.content : b.end]) <= 500 for b in rules)
        ):  # fmt: skip
            return [_cut(text, b.content, b.end) for b in rules]
    main = _main(text, section.heading.body, section.end)
    return [main] if main else []


def _labelled(text: str, sections: list[_Section], every: list[Block]) -> list[Span]:
    """`**Decision**: ...` paragraphs outside the alternatives, each its first sentence."""
    found: list[Span] = []
    for block in every:
        label = _LABEL.match(text, block.content, block.end)
        if not label or _NOT_TAKEN.match(text, label.end(), block.end):
            continue
        owner = [s for s in sections if s.heading.body <= block.start < s.end]
        if any(s.aside for s in owner):
            continue
        first = sentences(text, label.end(), block.end)
        if first:
            found.append(_cut(text, *_run_on(text, first[0], block)))
    return found


def _y_statement(text: str, found: list[Block]) -> Span | None:
    """A Y-statement: from "In the context of" through the paragraph (or the lines that follow it
    as items) that says what was decided."""
    for i, block in enumerate(found):
        at = re.search(r"\bin the context of\b", text[block.content : block.end], re.I)
        if not at:
            continue
        end = block.end
        for later in found[i + 1 : i + 8]:
            if re.search(r"\b(?:decided|chose|opted)\b", text[block.content : end], re.I):
                break
            if text[end : later.start].count("\n") > 2:
                break
            end = later.end
        if re.search(r"\b(?:decided|chose|opted)\b", text[block.content : end], re.I):
            return _cut(text, block.content + at.start(), end, limit=2 * MAX_QUOTE)
    return None


def _main(text: str, start: int, end: int, *, anywhere: bool = False) -> Span | None:
    """The decision sentence of `text[start:end]`: in its first prose paragraph (in any paragraph
    with `anywhere`), the first sentence with decision wording, else the first sentence."""
    found = blocks(text, start, end)
    if not found:
        return None
    for block in found if anywhere else found[:1]:
        for sentence in sentences(text, block.content, block.end):
            if _MARKER.search(text, sentence[0], sentence[1]):
                return _cut(text, *_run_on(text, sentence, block, found))
    first = found[0]
    spans = sentences(text, first.content, first.end)
    return _cut(text, *_run_on(text, spans[0], first, found)) if spans else None


def _run_on(text: str, sentence: tuple[int, int], block: Block, found: list[Block] | None = None) -> tuple[int, int]:
    """A sentence that ends in a colon ("We will:") runs on through the next paragraph or item."""
    start, end = sentence
    if not text[start:end].rstrip("*_ ").endswith(":"):
        return start, end
    if end < block.end:
        return start, block.end
    later = [b for b in (found or []) if b.start >= block.end]
    return (start, later[0].end) if later else (start, end)


def _cut(text: str, start: int, end: int, *, limit: int = MAX_QUOTE) -> Span:
    """`text[start:end]`, at most `limit` characters cut at a word boundary, trimmed."""
    if end - start > limit:
        cut = text.rfind(" ", start, start + limit)
        end = cut if cut > start + limit // 2 else start + limit
    while end > start and text[end - 1].isspace():
        end -= 1
    return Span(start, end)
