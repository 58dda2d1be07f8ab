"""Just enough Markdown for reading project documents: lines outside code, headings, front matter,
table rows, prose blocks and sentences, all as offsets into the text so that every quote taken
from them is a verbatim slice of it.

Not a Markdown renderer: fenced code and HTML comments are recognised (they are never prose, and
a `status:` line inside a YAML sample is not the document's status), the rest is read line by line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "Block",
    "Heading",
    "Line",
    "blocks",
    "front_matter",
    "headings",
    "lines",
    "plain",
    "sentences",
    "table_cells",
]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_ITEM = re.compile(r"( *)(?:[-*+•]|\d{1,3}[.)])[ \t]+")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_NOT_PROSE = re.compile(r" {0,3}(?:\||!\[|\[[^\]]+\]:\s|<(?!!--)[a-zA-Z/])")


@dataclass(frozen=True, slots=True)
class Line:
    start: int
    end: int  # before the newline
    code: bool  # inside fenced code or an HTML comment (fence and comment lines included)


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    title: str  # plain text
    start: int  # where the heading's line starts
    body: int  # where its content starts (after the heading line, or its setext underline)


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph or a list item of prose: `text[start:end]`, its content from `content`."""

    start: int
    end: int
    content: int  # after a list marker; == start for a paragraph
    item: bool
    indent: int


def lines(text: str, start: int = 0, end: int | None = None) -> Iterator[Line]:
    """The lines of `text[start:end]` (start at a line start), each marked code or not."""
    stop = len(text) if end is None else end
    fence = ""
    comment = False
    pos = start
    while pos < stop:
        nl = text.find("\n", pos, stop)
        line_end = stop if nl < 0 else nl
        raw = text[pos:line_end]
        if fence:
            code = True
            if raw.strip().startswith(fence) and not raw.strip().strip(fence[0]):
                fence = ""
        elif comment:
            code = True
            comment = "-->" not in raw
        elif match := _FENCE.match(raw):
            code, fence = True, match.group(1)
        elif raw.lstrip().startswith("<!--"):
            code = True
            comment = "-->" not in raw[raw.index("<!--") + 4 :]
        else:
            code = False
        yield Line(pos, line_end, code)
        pos = line_end + 1


def front_matter(text: str) -> tuple[dict[str, str | list[str]], int]:
    """A leading YAML front matter block's flat fields (keys lower-cased) and where the body starts.

    Only `key: value`, `key: [a, b]` and `key:` followed by `- item` lines are read; nested maps
    are skipped. No front matter: `({}, 0)`.
    """
    if not text.startswith("---\n"):
        return {}, 0
    fields: dict[str, str | list[str]] = {}
    key = ""
    pos = 4
    for _ in range(200):
        nl = text.find("\n", pos)
        line = text[pos : len(text) if nl < 0 else nl]
        if line.rstrip() in ("---", "..."):
            return fields, len(text) if nl < 0 else nl + 1
        if (item := re.match(r"\s+-\s+(.*)", line)) and key:
            value = fields.get(key)
            fields[key] = [*(value if isinstance(value, list) else []), _unquote(item.group(1))]
        elif pair := re.match(r"([A-Za-z][\w -]*?)\s*:\s*(.*)$", line):
            key, value_text = pair.group(1).strip().lower(), pair.group(2).strip()
            if value_text.startswith("[") and value_text.endswith("]"):
                fields[key] = [_unquote(v) for v in value_text[1:-1].split(",") if v.strip()]
            else:
                fields[key] = _unquote(value_text)
        if nl < 0:
            break
        pos = nl + 1
    return {}, 0  # never closed: not front matter


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return re.sub(r"\s+#.*$", "", value)  # a trailing YAML comment


def headings(text: str, start: int = 0) -> list[Heading]:
    """ATX (`## Title`) and setext (`Title` over `===`/`---`) headings outside code, in order."""
    found: list[Heading] = []
    previous: Line | None = None
    before_previous_blank = True
    for line in lines(text, start):
        raw = text[line.start : line.end]
        if not line.code:
            if match := _ATX.match(raw):
                found.append(Heading(len(match.group(1)), plain(match.group(2) or ""), line.start, line.end + 1))
                previous, before_previous_blank = None, True
                continue
            if (
                (underline := _SETEXT.match(raw))
                and len(underline.group(1)) >= 3
                and previous is not None
                and before_previous_blank
                and _is_prose(text[previous.start : previous.end])
            ):
                level = 1 if underline.group(1)[0] == "=" else 2
                title = plain(text[previous.start : previous.end])
                found.append(Heading(level, title, previous.start, line.end + 1))
                previous, before_previous_blank = None, True
                continue
        blank = not raw.strip()
        before_previous_blank = previous is None or not text[previous.start : previous.end].strip()
        previous = None if line.code or blank else line
    return found


def _is_prose(raw: str) -> bool:
    stripped = raw.strip()
    return bool(stripped) and not _NOT_PROSE.match(raw) and not _ITEM.match(raw) and stripped[0] not in "#>"


def table_cells(row: str) -> list[str] | None:
    """The cells of one Markdown table row (`| a | b |`), or None for a line that is not a row or
    is the `|---|:---|` separator."""
    body = row.strip()
    if not body.startswith("|"):
        return None
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", body.strip("|"))]
    if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c) and any(cells):
        return None
    return cells


def blocks(text: str, start: int, end: int) -> list[Block]:
    """The prose blocks of `text[start:end]`: paragraphs and list items, outside code, tables,
    headings, images, link definitions and HTML."""
    found: list[Block] = []
    current: list[int] | None = None  # [start, end, content, item, indent]
    for line in lines(text, start, end):
        raw = text[line.start : line.end]
        stripped = raw.strip()
        if line.code or not stripped or _NOT_PROSE.match(raw) or _RULE.match(raw) or _ATX.match(raw):
            if current:
                found.append(Block(current[0], current[1], current[2], bool(current[3]), current[4]))
            current = None
            continue
        if item := _ITEM.match(raw):
            if current:
                found.append(Block(current[0], current[1], current[2], bool(current[3]), current[4]))
            current = [line.start, line.end, line.start + item.end(), 1, len(item.group(1))]
        elif current is not None:
            current[1] = line.end
        else:
            lead = len(raw) - len(raw.lstrip())
            current = [line.start + lead, line.end, line.start + lead, 0, lead]
    if current:
        found.append(Block(current[0], current[1], current[2], bool(current[3]), current[4]))
    return [b for b in found if text[b.content : b.end].strip()]


# A sentence ends at . ! or ? before whitespace and a capital, digit, quote, bracket or emphasis,
# unless the word before is an abbreviation ("e.g. Redis").
_BOUNDARY = re.compile(r"[.!?]+(?=\s+[\"'“‘(\[*_`A-Z0-9])")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|fig|inc|ltd|mr|ms|dr)|\b[A-Z])$", re.I)


def sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The sentences of `text[start:end]` as (start, end) offsets, each trimmed of whitespace."""
    spans: list[tuple[int, int]] = []
    cursor = start
    for stop in _BOUNDARY.finditer(text, start, end):
        if _ABBREVIATION.search(text, max(start, stop.start() - 8), stop.start()):
            continue
        spans.append((cursor, stop.end()))
        cursor = stop.end()
    spans.append((cursor, end))
    trimmed = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            trimmed.append((a, b))
    return trimmed


_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|(?<!\w)__(.+?)__(?!\w)|~~(.+?)~~|(?<![\w*])\*(?!\s)([^*\n]+?)\*(?![\w*])")
_TAG = re.compile(r"<!--.*?-->|</?[a-zA-Z][^>\n]*>", re.S)


def plain(markdown: str) -> str:
    """Markdown as one line of plain text: links to their text, emphasis, code ticks, tags,
    escapes and list markers removed, whitespace collapsed."""
    text = _TAG.sub(" ", markdown)
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _REF_LINK.sub(lambda m: m.group(1), text)
    for _ in range(3):  # nested emphasis: **_x_**
        text = _EMPHASIS.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    text = text.replace("`", "")
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|])", r"\1", text)
    text = re.sub(r"(?m)^\s*(?:[-*+•]|\d{1,3}[.)])\s+", "", text)
    return " ".join(text.split())
