"""Rule files a team already wrote for its coding agents, one candidate per rule.

`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, `.cursorrules`, `.windsurfrules`, `.cursor/rules/*.mdc` and
`.github/copilot-instructions.md` are Markdown (or plain lines) of instructions. Each list item is
a rule unless the sentence judge calls it a question or plain chatter; a prose sentence is one only
when the judge calls it durable (a rule, a preference, a lesson). Headings are context, never
rules: they lend their words to the rule's area. Code blocks are examples and are skipped.

A `.mdc` file's front matter scopes its rules: `globs` become the rule's `paths` (and name its
files, so briefs and checks know where it applies); `alwaysApply: true` tags it `always`.

The file is stored as a session of one turn per section (the text under one heading), so every
rule's quote points at its section verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from forethought.apps.project.areas import vote
from forethought.apps.project.rules import classify
from forethought.apps.project.sources.markdown import front_matter
from forethought.domain import Role, Turn
from forethought.domain.documents import MAX_ITEMS, SourceDocument, SourceItem
from forethought.errors import InvalidInput, ModelUnavailable
from forethought.judge import DURABLE, Act, SentenceJudge, shared_judge
from forethought.text.sentences import split_sentences

__all__ = ["MAX_RULE_FILE_CHARS", "is_rule_file", "read_rule_file"]

MAX_RULE_FILE_CHARS = 200_000
MAX_RULE_CHARS = 1_000  # a longer list item is cut at a sentence end for its statement
_NAMES = frozenset({"agents.md", "claude.md", "gemini.md", ".cursorrules", ".windsurfrules", "copilot-instructions.md"})
_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?(?P<body>\S.*)$")
_HEADING = re.compile(r"^#{1,6}[ \t]+(?P<title>.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_DESCRIPTIVE_P = 0.8  # a list item the judge calls chatter this surely is a description, not a rule
_PROSE_P = 0.5  # a prose sentence becomes a rule at this durable probability (the extractor's)


def is_rule_file(path: str) -> bool:
    """Whether `path` names a rule file this reader knows."""
    p = PurePosixPath(path.replace("\\", "/"))
    return p.name.lower() in _NAMES or (p.suffix == ".mdc" and p.parent.name == "rules")


@dataclass(frozen=True)
class _Piece:
    turn: int
    quote: str
    heading: str
    listed: bool  # a list item (a rule by default) rather than a prose sentence


@dataclass(frozen=True)
class _Front:
    description: str
    globs: tuple[str, ...]
    always: bool


def read_rule_file(text: str, *, path: str, judge: SentenceJudge | None = None) -> SourceDocument:
    """The rules of one rule file as a document; `path` is how the project names the file."""
    if len(text) > MAX_RULE_FILE_CHARS:
        raise InvalidInput(f"{path}: a rule file is at most {MAX_RULE_FILE_CHARS:,} characters ({len(text):,} given)")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front, body = _front_matter(text)
    turns, pieces = _sections(body, PurePosixPath(path).name)
    items = _rules(pieces, front, judge or shared_judge())
    notes = {"path": path, "rules": len(items)}
    if front.globs:
        notes["globs"] = list(front.globs)
    return SourceDocument(
        ref=f"rules:{path}",
        source="rules",
        title=f"rule file {path}"[:200],
        turns=tuple(turns),
        items=tuple(items[:MAX_ITEMS]),
        skipped=None if items else "no rules found",
        metadata={**notes, "truncated": len(items) > MAX_ITEMS},
    )


def _front_matter(text: str) -> tuple[_Front, str]:
    fields, body = front_matter(text)
    raw = fields.get("globs", "")
    globs = tuple(g.strip() for g in (raw if isinstance(raw, list) else raw.split(",")) if g.strip())
    description = fields.get("description", "")
    always = fields.get("alwaysapply", "")
    return _Front(description if isinstance(description, str) else " ".join(description), globs,
                  always == "true"), text[body:]  # fmt: skip


def _sections(body: str, name: str) -> tuple[list[Turn], list[_Piece]]:
    """One turn per heading's section; the list items and prose sentences of each, quoted verbatim."""
    turns: list[Turn] = []
    pieces: list[_Piece] = []
    for heading, lines in _split(body):
        text = "\n".join(lines).strip("\n")
        if not text.strip():
            continue
        index = len(turns)
        turns.append(Turn(index=index, role=Role.USER, speaker=name, text=text))
        pieces.extend(_Piece(index, quote, heading, listed) for quote, listed in _pieces(text))
    return turns, pieces


def _split(body: str) -> Iterator[tuple[str, list[str]]]:
    heading, lines, fenced = "", [], False
    for line in _COMMENT.sub("", body).split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        match = None if fenced else _HEADING.match(line)
        if match is None:
            lines.append(line)
            continue
        yield heading, lines
        heading, lines = match["title"], [line]
    yield heading, lines


def _pieces(text: str) -> Iterator[tuple[str, bool]]:
    """(verbatim quote, is a list item) for each rule-sized piece of a section."""
    lines = text.split("\n")
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
            i += 1
            continue
        if fenced or not line.strip() or _HEADING.match(line) or line.lstrip().startswith("|"):
            i += 1
            continue
        item = _ITEM.match(line)
        j = i + 1
        if item is not None:  # the item and its continuation lines (indented deeper, not a new item)
            while j < len(lines) and lines[j][:1] in (" ", "\t") and lines[j].strip():
                if _ITEM.match(lines[j]) or _FENCE.match(lines[j]):
                    break
                j += 1
            yield "\n".join([item["body"], *lines[i + 1 : j]]), True
        else:  # a paragraph: its sentences, each judged on its own
            while j < len(lines) and lines[j].strip() and not _ITEM.match(lines[j]) and not _HEADING.match(lines[j]):
                j += 1
            paragraph = "\n".join(lines[i:j])  # wrapped lines are one text: split as if unwrapped
            for sentence in split_sentences(paragraph.replace("\n", " ")):
                yield paragraph[sentence.start : sentence.end], False
        i = j


def _rules(pieces: list[_Piece], front: _Front, judge: SentenceJudge) -> list[SourceItem]:
    texts = [" ".join(p.quote.split()) for p in pieces]
    try:
        judgements = judge.judge([(t, Role.USER) for t in texts])
    except ModelUnavailable:
        judgements = []
    items: list[SourceItem] = []
    for k, (piece, statement) in enumerate(zip(pieces, texts, strict=True)):
        if len(statement.split()) < 3 or statement.endswith(":"):  # a label or a lead-in, not a rule
            continue
        if judgements:
            j = judgements[k]
            if j.act is Act.QUESTION:
                continue
            if piece.listed and j.act is Act.CHATTER and j.p(Act.CHATTER) >= _DESCRIPTIVE_P:
                continue
            if not piece.listed and j.p(*DURABLE) < _PROSE_P:
                continue
            kind = "preference" if j.act is Act.PREFERENCE else j.kind or "convention"
        else:
            match = classify(statement)
            if match is None and not piece.listed:
                continue
            kind = match.kind if match is not None else "convention"
        area = vote(f"{piece.heading} {statement} {front.description}").best()
        attributes: dict[str, object] = {"area": area}
        if front.globs:
            attributes["paths"] = list(front.globs)
        if front.always:
            attributes["always"] = True
        items.append(
            SourceItem(
                quote=piece.quote,
                turn_index=piece.turn,
                kind=kind,
                statement=_statement(statement, front.globs),
                attributes=attributes,
            )
        )
    return items


def _statement(text: str, globs: tuple[str, ...]) -> str:
    if len(text) > MAX_RULE_CHARS:
        cut = text[:MAX_RULE_CHARS]
        text = cut[: cut.rfind(". ") + 1] or cut
    return f"{text} (in {', '.join(globs)})" if globs else text
