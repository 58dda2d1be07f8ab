"""An ADR's header: its identifier, status, date, deciders and supersession links, wherever the
template puts them.

Fields are read, first found wins, from YAML front matter (MADR 3/4), then the text before the
first section (a `| Date | ... |` table, `Status: ...` or `* Status: ...` lines: Nygard, MADR 2),
then sections named after a field (`## Status`, `## Date`). Code samples and HTML comments are
never read, so a `status:` in a YAML example or a template's "<!-- use Approved -->" is not a status.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from forethought.apps.project.sources.markdown import Heading, front_matter, lines, plain, table_cells
from forethought.domain.documents import DocumentStatus
from forethought.domain.limits import MAX_SPEAKER

__all__ = ["Header", "read_header", "speaker_of", "status_of"]

# Field names as templates write them, to the one name this reader uses.
_KEYS = {
    "status": "status",
    "state": "status",
    "adr status": "status",
    "decision status": "status",
    "date": "date",
    "decision date": "date",
    "date decided": "date",
    "deciders": "deciders",
    "decision makers": "deciders",
    "decided by": "deciders",
    "authors": "authors",
    "author": "authors",
    "owners": "authors",
    "owner": "authors",
    "proposed by": "authors",
    "supersedes": "supersedes",
    "replaces": "supersedes",
    "superseded by": "superseded_by",
    "replaced by": "superseded_by",
    "title": "title",
    "id": "id",
    "adr": "id",
    "number": "id",
}
_LIST_KEYS = ("supersedes", "superseded_by")
_KEY_LINE = re.compile(
    r"\s*(?:[-*+]\s+)?(?:\*\*|__)?(?P<key>[A-Za-z][A-Za-z _-]{1,24}?)(?:\*\*|__)?\s*:"
    r"\s*(?:\*\*|__)?\s*(?P<value>.*?)\s*$"
)
_RELATION_LINE = re.compile(
    r"\s*(?:[-*+]\s+)?(?P<key>supersedes|superseded by|replaces|replaced by)\b\s*:?\s*(?P<value>.+)", re.I
)
_NOTHING = re.compile(r"(?:n/?a|none|nil|null|-+|—|–|\?+)", re.I)
_EMPTY = re.compile(r"(?:n/?a|none|nil|null|-+|—|–|\?+|tbd|todo|insert .*|<.*>|\{.*\}|yyyy-mm-dd)", re.I)


def _name(key: str) -> str | None:
    return _KEYS.get(" ".join(re.sub(r"[-_*:]", " ", plain(key)).lower().split()))


@dataclass
class Header:
    values: dict[str, str] = field(default_factory=dict)  # status, date, deciders, authors, title, id
    supersedes: list[str] = field(default_factory=list)  # raw values, refs read by `refs_in`
    superseded_by: list[str] = field(default_factory=list)

    def put(self, key: str, value: str) -> None:
        name = _name(key)
        text = value.strip()
        shown = plain(text)
        if name is None or not shown or (_NOTHING if name == "status" else _EMPTY).fullmatch(shown):
            return
        if name in _LIST_KEYS:
            getattr(self, name).append(text)
        else:
            self.values.setdefault(name, text)


def read_header(text: str, *, body: int, preamble_end: int, sections: list[tuple[Heading, int]]) -> Header:
    """The fields of an ADR: `body` is where the text after any front matter starts,
    `preamble_end` where its first section starts, `sections` the (heading, end) of each section."""
    header = Header()
    matter, _ = front_matter(text)
    for name, value in matter.items():
        for one in value if isinstance(value, list) else [value]:
            header.put(name, one)
    _read_lines(text, body, preamble_end, header, relation_lines=True)
    for heading, end in sections:
        name = heading.title.lower().strip(" :")
        key = _name(name)
        if key is not None and key in ("status", "date", "deciders", "authors"):
            _read_section(text, heading.body, end, key, header)
        elif name in ("metadata", "meta", "header", "details"):
            _read_lines(text, heading.body, end, header, relation_lines=True)
    return header


def _read_lines(text: str, start: int, end: int, header: Header, *, relation_lines: bool) -> None:
    rows: list[list[str]] = []
    for line in lines(text, start, end):
        raw = text[line.start : line.end]
        if line.code:
            continue
        cells = table_cells(raw)
        if cells is not None or raw.strip().startswith("|"):
            if cells is not None:
                rows.append(cells)
            continue
        _read_table(rows, header)
        rows = []
        if relation_lines and (relation := _RELATION_LINE.match(raw)):
            header.put(relation.group("key"), relation.group("value"))
        elif match := _KEY_LINE.match(raw):
            header.put(match.group("key"), match.group("value"))
    _read_table(rows, header)


def _read_table(rows: list[list[str]], header: Header) -> None:
    """A header table: `| Key | Value |` rows, or one row of keys over one row of values."""
    if not rows:
        return
    names = [_name(c) for c in rows[0]]
    if len(rows) == 2 and sum(n is not None for n in names) >= 2:
        for cell, value in zip(rows[0], rows[1], strict=False):
            header.put(plain(cell).strip(" :"), value)
        return
    for row in rows:
        if len(row) >= 2:
            header.put(plain(row[0]).strip(" :"), " ".join(c for c in row[1:] if c))


def _read_section(text: str, start: int, end: int, key: str, header: Header) -> None:
    """A `## Status` (or Date, Deciders) section: its prose is the value; relation lines in it
    ("Superseded by [ADR-0009](...)") are links, `Date: ...` lines in it are fields."""
    kept: list[str] = []
    for line in lines(text, start, end):
        raw = text[line.start : line.end]
        if line.code or not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if relation := _RELATION_LINE.match(raw):
            header.put(relation.group("key"), relation.group("value"))
            if key == "status" and relation.group("key").lower().startswith(("superseded", "replaced")):
                kept.append(raw.strip())
        elif (match := _KEY_LINE.match(raw)) and _name(match.group("key")) not in (None, key):
            header.put(match.group("key"), match.group("value"))
        else:
            kept.append(raw.strip())
    if kept:
        header.put(key, "\n".join(kept[:6]))


# --- status ---------------------------------------------------------------------------------

_STATUS_WORDS: tuple[tuple[DocumentStatus, re.Pattern[str]], ...] = tuple(
    (status, re.compile(pattern, re.I))
    for status, pattern in (
        (DocumentStatus.SUPERSEDED, r"\bsuperseded\b|\breplaced by\b|\bobsoleted by\b"),
        (DocumentStatus.DEPRECATED, r"\bdeprecated\b|\bobsolete\b|\bretired\b|\bwithdrawn\b|\babandoned\b"),
        (DocumentStatus.REJECTED, r"\brejected\b|\bdeclined\b|\bnot (?:accepted|approved)\b|\brefused\b"),
        (
            DocumentStatus.CURRENT,
            r"\baccepted\b|\bapproved\b|\bimplemented\b|\badopted\b|\bagreed\b|\bdecided\b|\bcompleted?\b|"
            r"\bdone\b|\bfinal\b|\bactive\b|\bin effect\b|\benforced\b|\bratified\b",
        ),
        (
            DocumentStatus.PROPOSED,
            r"\bproposed\b|\bproposal\b|\bdraft\b|\breview\b|\bdiscussion\b|\bpending\b|\bopen\b|\bwip\b|"
            r"\bwork in progress\b|\bin progress\b|\btbd\b|\bto be decided\b|\brfc\b|\bsuggested\b|\bplanned\b",
        ),
    )
)


def status_of(value: str | None) -> tuple[DocumentStatus, bool]:
    """The status a status text names, and whether it is a template's placeholder
    ("proposed | rejected | accepted | ..."). No status: CURRENT (an ADR kept in the folder without
    one is taken as in force); a status nobody's words match: PROPOSED (not yet a decision)."""
    if value is None:
        return DocumentStatus.CURRENT, False
    text = plain(value)
    matched = [status for status, pattern in _STATUS_WORDS if pattern.search(text)]
    if len(matched) >= 3 and re.search(r"[|{\[]|\bor\b", value):
        return DocumentStatus.PROPOSED, True
    return (matched[0] if matched else DocumentStatus.PROPOSED), False


def speaker_of(value: str | None) -> str | None:
    """A deciders/authors line as a speaker's name: link text kept, handles and markup dropped."""
    if not value:
        return None
    text = plain(value).strip(" ,;.")
    if not text or _EMPTY.fullmatch(text):
        return None
    if len(text) > MAX_SPEAKER:
        cut = text[: MAX_SPEAKER - 1]
        text = (cut.rsplit(", ", 1)[0] if ", " in cut else cut.rsplit(" ", 1)[0]).rstrip(" ,;") + "…"
    return text
