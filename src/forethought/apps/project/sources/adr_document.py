"""One ADR file's text as a `SourceDocument`: its sections as turns, its header as the document's
status, date and links, its decision as items quoting the turns."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath

from forethought.apps.project.sources.adr_decision import Span, decision_spans
from forethought.apps.project.sources.adr_fields import Header, read_header, speaker_of, status_of
from forethought.apps.project.sources.adr_refs import AdrId, adr_id, key_of, refs_in
from forethought.apps.project.sources.dates import parse_date
from forethought.apps.project.sources.markdown import Heading, front_matter, headings, plain
from forethought.domain import Role, Turn
from forethought.domain.documents import DocumentStatus, SourceDocument, SourceItem
from forethought.errors import InvalidInput

__all__ = ["MAX_CHARS", "MAX_ITEMS", "MAX_TURN_CHARS", "parse_adr", "prepare"]

MAX_CHARS = 200_000  # of one ADR's text, after embedded base64 images are left out
MAX_TURN_CHARS = 50_000  # as the transcript readers': a longer section is cut at paragraph breaks
MAX_ITEMS = 8
MAX_TITLE = 200
MAX_STATEMENT = 400

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# An image pasted into the Markdown as a data URI (Google Docs exports do this): not text.
_DATA_URI = re.compile(r"(data:[\w.+-]+/[\w.+-]+(?:;[\w.+=-]+)*;base64,)([A-Za-z0-9+/=]{400,})")
_NOT_ADR_NAMES = {"readme", "index", "toc", "contents", "summary", "contributing", "changelog", "license"}
_ADR_HEADINGS = re.compile(
    r"(?:\d+[.)]?\s*)?(?:context|context and problem statement|problem|problem statement|background|decision|"
    r"decisions|decision outcome|decision drivers|consequences|considered options|rationale|status|what|why|how|"
    r"alternatives)\s*$",
    re.I,
)
_GENERIC_TITLE = re.compile(r"(?:.*\s[-–—:]\s)?(?:architecture decision record|adr)(?: template)?|title", re.I)
_DECISION_HEADING = re.compile(r"(?:\d+[.)]?\s*)?decision(?:s| outcome)?\s*$", re.I)


def prepare(text: str) -> tuple[str, int]:
    """The text as stored: newlines as `\\n`, no BOM or control characters, embedded base64
    images left out (their `data:` prefix kept, with how much was left out). Also the number of
    characters left out."""
    text = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff"))
    omitted = 0

    def omit(match: re.Match[str]) -> str:
        nonlocal omitted
        omitted += len(match.group(2))
        return f"{match.group(1)}[{len(match.group(2)):,} characters of base64 left out]"

    return _DATA_URI.sub(omit, text), omitted


@dataclass(frozen=True)
class _Shape:
    """Where an ADR's parts are: its text as stored, headings, title, sections."""

    text: str
    path: str
    stem: str
    body: int  # after any front matter
    heads: list[Heading]
    title: Heading | None
    split_level: int  # sections (turns) are the headings at this level or above
    tops: list[Heading]
    preamble_end: int  # where the first section starts
    omitted: int  # base64 characters left out


def parse_adr(text: str, *, path: str) -> SourceDocument | str:
    """The ADR in `text` (the file at `path`, relative to its folder), or why it is not one."""
    if not isinstance(text, str):
        raise InvalidInput(f"ADR {path}: expected text, got {type(text).__name__}")
    prepared, omitted = prepare(text)
    if len(prepared) > MAX_CHARS:
        raise InvalidInput(f"ADR {path}: {len(prepared):,} characters, over the limit of {MAX_CHARS:,}")
    stem = PurePosixPath(path).stem
    if stem.lower() in _NOT_ADR_NAMES:
        return f"not an ADR ({stem} file)"
    _, body = front_matter(prepared)
    heads = headings(prepared, body)
    title = heads[0] if heads and heads[0].level == 1 else None
    rest = [h for h in heads if h is not title]
    split_level = max(2, min((h.level for h in rest), default=2))
    tops = [h for h in rest if h.level <= split_level]
    preamble_end = tops[0].start if tops else len(prepared)
    shape = _Shape(prepared, path, stem, body, heads, title, split_level, tops, preamble_end, omitted)
    ends = [(h, next((t.start for t in tops if t.start > h.start), len(prepared))) for h in tops]
    header = read_header(prepared, body=body, preamble_end=preamble_end, sections=ends)
    status, template = status_of(header.values.get("status"))
    title_text = title.title if title else header.values.get("title") or re.sub(r"[-_]+", " ", stem)
    identifier, _ = adr_id(stem, title_text)
    if "id" in header.values and (from_header := adr_id(plain(header.values["id"]))[0]):
        identifier = from_header
    named_template = re.search(r"(?:^|[-_ ])template(?:$|[-_ ])", stem.lower())
    if template or (named_template and not (identifier and identifier.number)):
        return "an ADR template, not an ADR"
    decided = any(_DECISION_HEADING.match(h.title) for h in rest)
    if not (header.values.get("status") or decided or (identifier and any(_ADR_HEADINGS.match(h.title) for h in rest))):
        return "not an ADR: no status, no decision section and no ADR number"
    return _document(shape, header, identifier, title_text, status)


def _document(
    shape: _Shape, header: Header, identifier: AdrId | None, title_text: str, status: DocumentStatus
) -> SourceDocument:
    text = shape.text
    ref = "adr:" + key_of(shape.stem)
    if _GENERIC_TITLE.fullmatch(plain(title_text)):  # the template's own title, left in place
        in_stem, at = adr_id(shape.stem)
        slug = re.sub(r"[-_\s]+", " ", shape.stem[at + len(in_stem.text) :] if in_stem else shape.stem).strip()
        title_text = slug[:1].upper() + slug[1:] if slug else title_text
    title = _title(title_text, identifier)
    status_text = header.values.get("status")
    dated = parse_date(header.values.get("date")) or parse_date(status_text)
    occurred_at = dated[0] if dated else None
    speaker = speaker_of(header.values.get("deciders") or header.values.get("authors"))
    turns, spans = _turns(text, shape.tops, speaker, occurred_at)
    supersedes = [r for v in header.supersedes for r in refs_in(v)]
    superseded_by = [r for v in header.superseded_by for r in refs_in(v)]
    if status is DocumentStatus.SUPERSEDED and status_text:
        superseded_by.extend(refs_in(status_text))
    if superseded_by and status is DocumentStatus.CURRENT:
        status = DocumentStatus.SUPERSEDED  # its own header names what replaced it
    items: list[SourceItem] = []
    if status is not DocumentStatus.REJECTED:
        found = decision_spans(
            text,
            shape.heads,
            title=shape.title,
            split_level=shape.split_level,
            body=shape.body,
            after=shape.preamble_end,
        )
        for span in found:
            if (item := _item(text, span, spans, title)) is not None and item not in items:
                items.append(item)
    metadata: dict[str, object] = {
        "path": shape.path,
        "number": identifier.number if identifier else None,
        "adr_id": identifier.text if identifier else None,
        "status_text": plain(status_text) if status_text else None,
        "date_text": plain(header.values["date"]) if "date" in header.values else None,
        "sections": _section_names(shape, spans),
    }
    if dated and dated[1] != "day":
        metadata["date_precision"] = dated[1]
    if shape.omitted:
        metadata["base64_left_out"] = shape.omitted
    return SourceDocument(
        ref=ref,
        source="adr",
        title=title,
        turns=tuple(turns),
        occurred_at=occurred_at,
        items=tuple(items[:MAX_ITEMS]),
        extract=False,
        status=status,
        supersedes=tuple(dict.fromkeys(r for r in supersedes if r != ref)),
        superseded_by=tuple(dict.fromkeys(r for r in superseded_by if r != ref)),
        skipped="rejected ADR" if status is DocumentStatus.REJECTED else None if items else "no decision found",
        metadata=metadata,
    )


def _title(text: str, identifier: AdrId | None) -> str:
    """ "ADR <id>: <title>", the title without the id or "7." it may start with."""
    title = plain(text)
    if identifier:
        named = rf"(?<![\w-])(?:{re.escape(identifier.text)}|ADR[-\s#]?0*{identifier.number})(?![\w-])"
        title = re.sub(rf"\s*[-–—:|]?\s*{named}\s*[-–—:|.]?\s*", " - ", title, flags=re.I)
    title = re.sub(r"^\s*#?\d{1,6}\s*[.:)\-–—]\s+", "", title)
    title = re.sub(r"(?:\s+-\s+)+", " - ", title).strip(" -–—:|") or "(untitled)"
    full = f"ADR {identifier.text}: {title}" if identifier else f"ADR: {title}"
    return full if len(full) <= MAX_TITLE else full[: MAX_TITLE - 1].rstrip() + "…"


def _turns(
    text: str, tops: list[Heading], speaker: str | None, at: datetime | None
) -> tuple[list[Turn], list[tuple[int, int]]]:
    """One turn per section (the title and header first), a section over MAX_TURN_CHARS cut at
    paragraph breaks; also each turn's (start, end) in `text`."""
    bounds = [0, *(h.start for h in tops), len(text)]
    spans: list[tuple[int, int]] = []
    for start, end in itertools.pairwise(bounds):
        while end - start > MAX_TURN_CHARS:
            cut = text.rfind("\n\n", start, start + MAX_TURN_CHARS)
            cut = cut if cut > start else start + MAX_TURN_CHARS
            spans.append((start, cut))
            start = cut
        spans.append((start, end))
    trimmed = []
    for start, end in spans:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            trimmed.append((start, end))
    turns = [
        Turn(index=i, role=Role.USER, text=text[a:b], speaker=speaker, occurred_at=at)
        for i, (a, b) in enumerate(trimmed)
    ]
    return turns, trimmed


def _section_names(shape: _Shape, spans: list[tuple[int, int]]) -> list[str]:
    """Each turn's section: its heading, the title for the first (a cut section's later parts keep
    the name)."""
    names: list[str] = []
    for start, _ in spans:
        heading = next((h for h in shape.tops if h.start == start), None)
        if heading is not None:
            names.append(heading.title[:80])
        else:
            names.append(names[-1] if names else (shape.title.title[:80] if shape.title else ""))
    return names


def _item(text: str, span: Span, turns: list[tuple[int, int]], title: str) -> SourceItem | None:
    """The item quoting `span` from the turn holding its start (cut at that turn's end)."""
    for index, (start, end) in enumerate(turns):
        if start <= span.start < end:
            quote = text[span.start : min(span.end, end)].strip()
            if not quote:
                return None
            name = title.split(": ", 1)[1] if ": " in title else title
            statement = f"{name}: {plain(quote)}"
            if len(statement) > MAX_STATEMENT:
                statement = statement[: MAX_STATEMENT - 1].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"
            return SourceItem(quote=quote, turn_index=index, kind="decision", statement=statement)
    return None
