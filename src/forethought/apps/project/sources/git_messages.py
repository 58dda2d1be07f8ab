"""One commit message, read as text a sentence judge can take (no git, no I/O: `git.py` runs git).

Reading a message:

- trailers go (`Signed-off-by:`, `Co-authored-by:`, any `...-by:`, `Change-Id:`, `Cc:`,
  `Reviewed-on:`): they name people and e-mail addresses, never a rule;
- a conventional-commit prefix (`fix(auth)!: ...`) goes from the text; its type and scope stay as
  metadata (the scope is the area), and the subject becomes a sentence: first word capitalised
  when it is a plain lowercase word, a full stop added when it ends without punctuation;
- noise is named, not read: work in progress, fixup commits, version bumps and releases,
  formatting or typo fixes, empty messages (`Message.skip`);
- a revert names what it reverts (`This reverts commit <hash>.`): `Message.reverts` quotes that
  line as it stands in the text. A revert's text keeps its own wording (no sentence rewrite).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["MAX_MESSAGE_CHARS", "Message", "Revert", "read_message"]

MAX_MESSAGE_CHARS = 20_000  # a longer message is cut there (the document's metadata says so)

# Trailer tokens that carry people (and their e-mail addresses) or review-tool bookkeeping.
_TRAILER = re.compile(r"^(?:[A-Za-z][\w-]*-by|Change-Id|Cc|Reviewed-on)[ \t]*:", re.IGNORECASE)

_TYPES = r"feat|feature|fix|bugfix|hotfix|perf|refactor|revert|docs?|style|tests?|build|ci|chore|deps|security"
_CONVENTIONAL = re.compile(
    rf"^(?P<type>{_TYPES})(?:\((?P<scope>[^()\n]{{1,60}})\))?(?P<breaking>!)?:[ \t]+(?P<rest>\S.*)$",
    re.IGNORECASE,
)
_RELEASE_SCOPES = {"release", "deps", "deps-dev", "dependencies"}

_VERSION = r"v?\d+\.\d+(?:\.\d+)*(?:[-+][\w.]+)?"
_FORMATTERS = r"prettier|black|isort|ruff|gofmt|rustfmt|clang-format|eslint|autopep8"
# Each is matched against the subject without its conventional prefix; kept short and structural.
_NOISE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("work in progress", re.compile(r"^\W*wip\b", re.IGNORECASE)),
    ("fixup commit", re.compile(r"^(?:fixup|squash|amend)! ")),
    (
        "version bump or release",
        re.compile(
            rf"^(?:bump\b.*\d+\.\d+|bump (?:the )?(?:version|deps|dependencies)\b"
            rf"|(?:prepare |cut )?(?:release|releasing|version)\s+{_VERSION}|{_VERSION}\s*$)",
            re.IGNORECASE,
        ),
    ),
    (
        "formatting or typo only",
        re.compile(
            rf"^(?:(?:fix(?:e[sd])?|correct(?:ed)?)\s+(?:(?:a|some|the|minor|small)\s+)*typos?\b|typos?\b"
            rf"|(?:run|ran|apply|applied)\s+(?:{_FORMATTERS})\b"
            rf"|(?:fix(?:e[sd])?\s+)?(?:lint(?:ing)?|linter|format(?:ting)?|reformat(?:ted)?|whitespace|{_FORMATTERS})"
            rf"(?:\s+(?:errors?|issues?|warnings?|fix(?:es)?|changes|code|files))?\W*$)",
            re.IGNORECASE,
        ),
    ),
)

_REVERTS = re.compile(r"^This reverts commit ([0-9a-fA-F]{7,64})\b.*$", re.MULTILINE)
_REVERT_SUBJECT = re.compile(r'^Revert\s+"')


@dataclass(frozen=True)
class Revert:
    quote: str  # the "This reverts commit ..." line, verbatim in `Message.text`
    commit: str  # the hash as the message gives it (often abbreviated), lowercase


@dataclass(frozen=True)
class Message:
    subject: str  # the first line as written
    text: str  # the turn's text: the sentence subject, then the body paragraphs, trailers gone
    skip: str | None = None  # why the commit gives nothing (noise), None when it is read
    kind: str | None = None  # the conventional-commit type ("fix"), lowercase
    area: str | None = None  # the conventional-commit scope ("auth")
    breaking: bool = False  # `type!:` or a BREAKING CHANGE paragraph
    reverts: tuple[Revert, ...] = field(default=())
    truncated_from: int | None = None  # the message's length when it was cut to MAX_MESSAGE_CHARS


def read_message(raw: str) -> Message:
    """`raw` as git prints it (%B); never raises."""
    truncated_from = None
    if len(raw) > MAX_MESSAGE_CHARS:
        truncated_from, raw = len(raw), raw[:MAX_MESSAGE_CHARS]
    lines = _clean_lines(raw)
    if not lines:
        return Message(subject="", text="", skip="empty message", truncated_from=truncated_from)
    subject, body = lines[0], "\n".join(lines[1:]).strip("\n")
    reverts = tuple(Revert(quote=m.group(0), commit=m.group(1).lower()) for m in _REVERTS.finditer("\n".join(lines)))
    if reverts or _REVERT_SUBJECT.match(subject):
        text = "\n".join(lines).strip("\n")
        return Message(
            subject,
            text,
            skip=None if reverts else "revert names no commit",
            reverts=reverts,
            truncated_from=truncated_from,
        )
    found = _CONVENTIONAL.match(subject)
    rest = found.group("rest").strip() if found else subject.strip()
    kind = found.group("type").lower() if found else None
    area = found.group("scope").strip() if found and found.group("scope") else None
    breaking = bool(found and found.group("breaking")) or "BREAKING CHANGE:" in body
    text = _sentence(rest) + ("\n\n" + body if body else "")
    return Message(
        subject,
        text,
        skip=_noise(rest, kind, area),
        kind=kind,
        area=area,
        breaking=breaking,
        truncated_from=truncated_from,
    )


def _clean_lines(raw: str) -> list[str]:
    """Lines without trailers or trailing blanks, at most one blank line in a row, none leading."""
    out: list[str] = []
    for line in raw.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = line.rstrip()
        if _TRAILER.match(line):
            continue
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def _sentence(subject: str) -> str:
    first, _, tail = subject.partition(" ")
    if re.fullmatch(r"[a-z]+", first):
        subject = first.capitalize() + (" " + tail if tail else "")
    return subject if subject[-1] in ".!?…:;" else subject + "."


def _noise(rest: str, kind: str | None, area: str | None) -> str | None:
    if area is not None and area.lower() in _RELEASE_SCOPES:
        return "version bump or release"
    if kind == "style":  # conventional commits: changes that do not affect the meaning of the code
        return "formatting or typo only"
    if kind == "revert":  # `revert: ...` without git's "This reverts commit" line
        return "revert names no commit"
    for reason, pattern in _NOISE:
        if pattern.search(rest):
            return reason
    return None
