"""Where a draft's comments are: a banned name in a comment is a mention, not a use.

Line comments (`#`, `//`, `-- `, `; ` at a line's start; `#` or `//` after code with a space before
them), block comments (`/* ... */`, `<!-- ... -->`) and docstrings (a triple-quoted string that opens
a line) are found line by line, in time linear in the text. Preprocessor lines (`#include`,
`#define`, `#[derive]`, `#!`) are code. String literals are not comments: they carry SQL, shell
commands and module names that are real uses. In prose files (Markdown, reStructuredText, text) only
`<!-- ... -->` is a comment: `#` opens a heading there and `*` a list item.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = ["Comments", "comment_line", "comment_spans"]

_PREPROCESSOR = r"include\b|import\b|define\b|if|endif\b|else\b|pragma\b|undef\b|\[|!"  # and `#[attr]`, `#!`
# `--` and `;` open a comment only before a space (`-- note`), never a flag (`--no-cache`).
_LINE = re.compile(rf"^[ \t]*(?:#(?!{_PREPROCESSOR})|//|--(?=[ \t]|$)|;(?=[ \t]|$)|\*(?:[ \t/]|$))")
_TRAILING = re.compile(r"[ \t](?:#(?![\w{\[])|//)")  # `x = 1  # note`, `call(); // note`; not `#fff`, `#{x}`
_OPENS = (("/*", "*/"), ("<!--", "-->"))
_PROSE = frozenset({".md", ".markdown", ".rst", ".txt", ".adoc"})
_DOC = re.compile(r"^[ \t]*[rRbBuU]?(\"\"\"|''')")


@dataclass(frozen=True)
class Comments:
    """The comment spans of one text, sorted: `covers(i)` says whether offset i is inside one."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def covers(self, offset: int) -> bool:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i >= 0 and offset < self.ends[i]


def comment_line(line: str) -> bool:
    """Whether `line` is a comment from its start (a line comment, or a block comment opening)."""
    return bool(_LINE.match(line)) or line.lstrip().startswith(("/*", "<!--"))


def _quoted(line: str, at: int) -> bool:
    """Whether `at` sits inside a one-line string literal of `line` (quotes counted before it)."""
    before = line[:at]
    return before.count('"') % 2 == 1 or before.count("'") % 2 == 1 or before.count("`") % 2 == 1


def comment_spans(text: str, path: str | None = None) -> Comments:
    """The comments of `text`, a file at `path` when known (its extension says if it is prose)."""
    if path is not None and PurePosixPath(path.replace("\\", "/")).suffix.lower() in _PROSE:
        return _html_comments(text)
    starts: list[int] = []
    ends: list[int] = []
    offset = 0
    closing: str | None = None  # the marker that ends the block comment or docstring we are in
    string: str | None = None  # the quotes that end the multi-line string of code we are in
    for line in text.splitlines(keepends=True):
        end = offset + len(line)
        if string is not None:  # SQL or a heredoc (`query = """`, `@doc """`): code, whatever it holds
            string = None if string in line else string
            offset = end
            continue
        if closing is not None:
            at = line.find(closing)
            starts.append(offset)
            ends.append(end if at < 0 else offset + at + len(closing))
            closing = None if at >= 0 else closing
            offset = end
            continue
        if _LINE.match(line):
            starts.append(offset)
            ends.append(end)
            offset = end
            continue
        doc = _DOC.match(line)
        if doc:
            quote = doc.group(1)
            rest = line.find(quote, doc.end())
            starts.append(offset)
            ends.append(end if rest < 0 else offset + rest + 3)
            closing = quote if rest < 0 else None
            offset = end
            continue
        opened = next((q for q in ('"""', "'''") if line.count(q) % 2 == 1), None)
        if opened is not None:  # a multi-line string of code opens here: its closing line is not a docstring
            string = opened
            offset = end
            continue
        for opening, close in _OPENS:
            at = line.find(opening)
            if at >= 0 and not _quoted(line, at):
                shut = line.find(close, at + len(opening))
                starts.append(offset + at)
                ends.append(end if shut < 0 else offset + shut + len(close))
                closing = close if shut < 0 else None
                break
        else:
            trailing = _TRAILING.search(line)
            url = trailing is not None and "://" in line[trailing.start() - 1 : trailing.end() + 1]
            if trailing and not url and not _quoted(line, trailing.start()):
                starts.append(offset + trailing.start())
                ends.append(end)
        offset = end
    return Comments(tuple(starts), tuple(ends))


def _html_comments(text: str) -> Comments:
    starts: list[int] = []
    ends: list[int] = []
    at = text.find("<!--")
    while at >= 0:
        shut = text.find("-->", at + 4)
        starts.append(at)
        ends.append(len(text) if shut < 0 else shut + 3)
        at = -1 if shut < 0 else text.find("<!--", shut + 3)
    return Comments(tuple(starts), tuple(ends))
