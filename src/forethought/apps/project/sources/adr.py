"""Architecture Decision Records: a folder of Markdown ADRs read as `SourceDocument`s.

Any common template is read (Nygard, MADR 2/3/4 with or without front matter, Y-statements,
header tables): see `adr_fields` for the header, `adr_decision` for what is quoted as decided.

- `ref` is "adr:" plus the file name's stem from the ADR's identifier on, lower-cased
  ("ODH-ADR-Operator-0007-auth-crd.md" -> "adr:odh-adr-operator-0007-auth-crd", "0007-use-x.md" ->
  "adr:0007-use-x"): two ADRs that share a number stay distinct, a link to the file resolves to
  it, and the ref does not change when other files are added. Two files with the same stem in
  different sub-folders get their folder in the ref ("adr:automl/odh-adr-0001-x").
- `metadata`: path (relative to the folder), number (int), adr_id ("ODH-ADR-Operator-0007"),
  status_text and date_text as written, sections (one name per turn), date_precision "month"
  for a "January, 2026" date (taken as the 1st), base64_left_out (characters of embedded images),
  replaced_characters (True when the file was not UTF-8 and was decoded with replacement).
- Status: Accepted/Approved/Implemented/Completed -> CURRENT; Proposed/Draft/Review/TBD and any
  status no word of which is known -> PROPOSED; Superseded, Deprecated, Rejected/Declined as named.
  An ADR with no status at all is CURRENT.
- Turns: one per section (the title and header first; a section over 50,000 characters is cut at
  paragraph breaks), role USER, speaker the deciders (else authors) line, dated with the ADR.
- Items: its decision, quoted from the turn that holds it (`adr_decision`), at most 8; an ADR in
  which nothing reads as decided gives none and `skipped="no decision found"`.
- A rejected ADR gives no items and `skipped="rejected ADR"`: reported, not filed, but still in
  `documents` so what it supersedes resolves. A proposed ADR's items are returned (the pipeline
  files them as proposals).
- Links are made symmetric across the folder: B supersedes A -> A.superseded_by has B (unless B
  was rejected), and A becomes SUPERSEDED when B is in force (current or itself superseded) and
  A did not say it is deprecated or rejected. A bare "ADR-0003" is resolved by number (and series,
  and sub-folder, when several share it); one that matches nothing in the folder is kept as is.

Bounds: at most MAX_FILES Markdown files (in path order; hidden folders and files skipped), each
at most MAX_BYTES on disk and MAX_CHARS characters once embedded base64 images are left out; a
file over a bound, unreadable, or not an ADR is reported in `skipped` with why. Text that is not
UTF-8 is decoded with replacement characters.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from forethought.apps.project.sources.adr_document import MAX_CHARS, parse_adr
from forethought.domain.documents import DocumentStatus, SourceDocument
from forethought.errors import InvalidInput

__all__ = ["MAX_BYTES", "MAX_CHARS", "MAX_FILES", "AdrImport", "link_adrs", "read_adr", "read_adr_folder"]

MAX_FILES = 2_000
MAX_BYTES = 2 * 1024 * 1024  # on disk: a file is never read past this (base64 images make ADRs big)
MAX_ENTRIES = 200_000  # directory entries looked at while searching for Markdown files
_SUFFIXES = (".md", ".markdown")
_IN_FORCE = (DocumentStatus.CURRENT, DocumentStatus.SUPERSEDED)


@dataclass(frozen=True)
class AdrImport:
    """What a folder gave: its ADRs (by date, then number; undated last) and the files skipped."""

    documents: list[SourceDocument] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (relative path, why)


def read_adr(text: str, *, path: str) -> SourceDocument | None:
    """One ADR file's text (`path` names the file, relative to its folder); None when the file is
    Markdown but not an ADR (a guide, a README, a template). InvalidInput for a text over MAX_CHARS."""
    found = parse_adr(text, path=path)
    return found if isinstance(found, SourceDocument) else None


def read_adr_folder(folder: Path) -> AdrImport:
    """Every ADR under `folder` (recursively, `*.md` and `*.markdown`), linked to each other.

    InvalidInput when `folder` does not exist or is not a folder."""
    root = Path(folder)
    if not root.exists():
        raise InvalidInput(f"ADR folder {str(root)!r} does not exist")
    if not root.is_dir():
        raise InvalidInput(f"ADR folder {str(root)!r} is a file, not a folder")
    paths, skipped = _markdown_files(root)
    documents: list[SourceDocument] = []
    for path in paths:
        rel = path.relative_to(root).as_posix()
        text, why = _read(path)
        if text is None:
            skipped.append((rel, why))
            continue
        try:
            found = parse_adr(text, path=rel)
        except InvalidInput as error:  # over MAX_CHARS
            skipped.append((rel, error.summary.removeprefix(f"ADR {rel}: ")))
            continue
        if isinstance(found, str):
            skipped.append((rel, found))
        elif why == "replaced":
            documents.append(found.model_copy(update={"metadata": {**found.metadata, "replaced_characters": True}}))
        else:
            documents.append(found)
    return AdrImport(documents=link_adrs(documents), skipped=skipped)


def link_adrs(documents: list[SourceDocument]) -> list[SourceDocument]:
    """ADRs read one by one (`read_adr`) as the folder reader returns them: refs unique, links
    resolved and symmetric, sorted by date then number."""
    return sorted(_link(_unique(documents)), key=_order)


def _markdown_files(root: Path) -> tuple[list[Path], list[tuple[str, str]]]:
    """Markdown files under `root` in path order, at most MAX_FILES; and what the bounds left out."""
    found: list[Path] = []
    skipped: list[tuple[str, str]] = []
    seen = 0
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        seen += len(dirs) + len(files)
        for name in sorted(files):
            if name.startswith(".") or not name.lower().endswith(_SUFFIXES):
                continue
            if len(found) >= MAX_FILES:
                skipped.append((".", f"more than {MAX_FILES:,} Markdown files: only the first {MAX_FILES:,} were read"))
                return found, skipped
            found.append(Path(base) / name)
        if seen > MAX_ENTRIES:
            skipped.append((".", f"more than {MAX_ENTRIES:,} entries in the folder: the search stopped there"))
            break
    return found, skipped


def _read(path: Path) -> tuple[str | None, str]:
    """The file's text and "" (or "replaced" when bytes were not UTF-8), or None and why not."""
    try:
        if not path.is_file():
            return None, "not a regular file"
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        return None, f"unreadable: {error.strerror or error}"
    if len(data) > MAX_BYTES:
        return None, f"over {MAX_BYTES:,} bytes, not read"
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), "replaced"


def _unique(documents: list[SourceDocument]) -> list[SourceDocument]:
    """Refs made unique: files sharing a stem in different sub-folders get their folder in it."""
    counts: dict[str, int] = {}
    for doc in documents:
        counts[doc.ref] = counts.get(doc.ref, 0) + 1
    unique: list[SourceDocument] = []
    taken = {doc.ref for doc in documents if counts[doc.ref] == 1}
    for doc in documents:
        if counts[doc.ref] == 1:
            unique.append(doc)
            continue
        path = PurePosixPath(doc.metadata["path"])
        ref = f"adr:{path.parent.as_posix().lower()}/{doc.ref.removeprefix('adr:')}"
        if ref in taken:  # same folder too: "x.md" and "x.markdown"
            ref = f"adr:{path.as_posix().lower()}"
        taken.add(ref)
        unique.append(doc.model_copy(update={"ref": ref}))
    return unique


_BARE = re.compile(r"adr:(?P<series>(?:[a-z0-9]+-)*?)(?P<number>\d{1,6})")


def _link(documents: list[SourceDocument]) -> list[SourceDocument]:
    """Refs to ADRs of the folder resolved, then supersession made symmetric (module docstring)."""
    by_ref = {doc.ref: doc for doc in documents}
    resolved: dict[str, SourceDocument] = {}
    for doc in documents:
        links = {name: _resolved(getattr(doc, name), doc, documents) for name in ("supersedes", "superseded_by")}
        resolved[doc.ref] = doc.model_copy(update=links)
    by_ref = resolved
    for doc in list(by_ref.values()):
        for old_ref in doc.supersedes:
            old = by_ref.get(old_ref)
            if old is None or doc.status is DocumentStatus.REJECTED:
                continue
            change: dict[str, object] = {"superseded_by": tuple(dict.fromkeys((*old.superseded_by, doc.ref)))}
            if doc.status in _IN_FORCE and old.status in (DocumentStatus.CURRENT, DocumentStatus.PROPOSED):
                change["status"] = DocumentStatus.SUPERSEDED
            by_ref[old_ref] = old.model_copy(update=change)
    for doc in list(by_ref.values()):
        for new_ref in doc.superseded_by:
            new = by_ref.get(new_ref)
            if new is not None and doc.ref not in new.supersedes:
                by_ref[new_ref] = new.model_copy(update={"supersedes": (*new.supersedes, doc.ref)})
    return [by_ref[doc.ref] for doc in documents]


def _resolved(refs: tuple[str, ...], doc: SourceDocument, documents: list[SourceDocument]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r for r in (_resolve(ref, doc, documents) for ref in refs) if r != doc.ref))


def _resolve(ref: str, doc: SourceDocument, documents: list[SourceDocument]) -> str:
    """`ref` as the ref of one ADR of the folder when it names one unambiguously, else as is."""
    if any(d.ref == ref for d in documents):
        return ref
    key = ref.removeprefix("adr:")
    same_key = [d for d in documents if d.ref.rsplit("/", 1)[-1] == key]
    if len(same_key) > 1:  # made unique by folder: the one beside `doc`
        same_key = [d for d in same_key if _folder(d) == _folder(doc)]
    if len(same_key) == 1:
        return same_key[0].ref
    bare = _BARE.fullmatch(ref)
    if bare is None:
        return ref
    number, series = int(bare.group("number")), bare.group("series").rstrip("-")
    candidates = [d for d in documents if d.metadata.get("number") == number and d is not doc and (
        series in ("", "adr") or _series(d) in ("", series))]  # fmt: skip
    if len(candidates) > 1 and (same_series := [d for d in candidates if _series(d) == series]):
        candidates = same_series
    if len(candidates) > 1 and (beside := [d for d in candidates if _folder(d) == _folder(doc)]):
        candidates = beside
    return candidates[0].ref if len(candidates) == 1 else ref


def _series(doc: SourceDocument) -> str:
    text = str(doc.metadata.get("adr_id") or "")
    return re.sub(r"[-_\s#]*\d+$", "", text).lower().replace(" ", "-")


def _folder(doc: SourceDocument) -> str:
    return PurePosixPath(str(doc.metadata["path"])).parent.as_posix()


def _order(doc: SourceDocument) -> tuple[bool, datetime, int, str]:
    number = doc.metadata.get("number")
    return (
        doc.occurred_at is None,
        doc.occurred_at or datetime.min.replace(tzinfo=UTC),
        number if isinstance(number, int) else 1 << 30,
        doc.ref,
    )
